import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { root } from "./dist.js";

/** One fenced code block of a markdown file (README.md unless told). */
export interface ReadmeBlock {
  /** A file-name-safe id: `block-<n>-<heading slug>`. */
  readonly id: string;
  /** The `##`/`###` heading the block sits under. */
  readonly heading: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The block's text. */
  readonly code: string;
}

/** A fenced block with the markers found on the lines before its fence. */
export interface MarkedBlock extends ReadmeBlock {
  /** False when a {@link NOT_TESTED} marker precedes the fence. */
  readonly tested: boolean;
  /** The reason a not-tested marker gives (`<!-- not-tested: reason -->`), or "" when it gives none. */
  readonly notTestedReason: string;
  /** True when a {@link CONTINUES} marker precedes the fence: the block builds on the page's previous tested block. */
  readonly continues: boolean;
}

/**
 * The marker that, on a line before a ```ts fence (blank lines allowed), keeps
 * that block out of the tests. In docs/ it must give a reason:
 * `<!-- not-tested: why this block cannot be complete -->`.
 */
export const NOT_TESTED = "<!-- not-tested -->";
const NOT_TESTED_PATTERN = /^<!-- not-tested(?::\s*(.*?))?\s*-->$/;
const TESTED_IN_PATTERN = /^<!-- tested: (\S+) -->$/;

/**
 * The marker that, on a line before a ```ts fence, makes the block a
 * continuation of the page's previous tested ts block: the two are compiled as
 * one file (the earlier block's imports and names are in scope).
 */
export const CONTINUES = "<!-- continues -->";

/** Every fenced block of `language` in `markdown`, in order, with its markers. */
export function fencedBlocks(
  language: string,
  markdown = readFileSync(join(root, "README.md"), "utf8"),
  name = "README.md",
): MarkedBlock[] {
  const lines = markdown.split("\n");
  const blocks: MarkedBlock[] = [];
  let heading = "";
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, "");
    if (line.trim() !== `\`\`\`${language}`) {
      if (line.startsWith("```")) index = closingFence(lines, index, name); // skip other blocks whole
      continue;
    }
    const end = closingFence(lines, index, name);
    // The markers: the comment lines right above the fence (blank lines between are fine).
    const markers: string[] = [];
    for (let previous = index - 1; previous >= 0; previous--) {
      const text = lines[previous]?.trim() ?? "";
      if (text === "") continue;
      if (!/^<!--.*-->$/.test(text)) break;
      markers.push(text);
    }
    const notTested = markers.map((marker) => NOT_TESTED_PATTERN.exec(marker)).find(Boolean);
    // `<!-- tested: <file> -->`: the block is an excerpt of that file, which its own test runs.
    const testedElsewhere = markers.map((marker) => TESTED_IN_PATTERN.exec(marker)).find(Boolean);
    const slug = heading
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    blocks.push({
      id: `block-${blocks.length + 1}-${slug}`,
      heading,
      line: index + 1,
      code: lines.slice(index + 1, end).join("\n"),
      tested: !notTested && !testedElsewhere,
      notTestedReason: testedElsewhere
        ? `an excerpt of ${testedElsewhere[1]}`
        : (notTested?.[1]?.trim() ?? ""),
      continues: markers.includes(CONTINUES),
    });
    index = end;
  }
  return blocks;
}

function closingFence(lines: readonly string[], open: number, name: string): number {
  for (let index = open + 1; index < lines.length; index++) if (lines[index]?.trim() === "```") return index;
  throw new Error(`${name}: the code block opened on line ${open + 1} is never closed`);
}

/** The README's ```ts blocks that tests run: all of them except those marked {@link NOT_TESTED}. */
export function testedTypeScriptBlocks(): ReadmeBlock[] {
  return fencedBlocks("ts").filter((block) => block.tested);
}

/** The first ```json block under the heading `heading` (the documented tsconfig). */
export function jsonBlockUnder(heading: string): unknown {
  const block = fencedBlocks("json").find((candidate) => candidate.heading === heading);
  if (!block) throw new Error(`README.md has no \`\`\`json block under '${heading}'`);
  return JSON.parse(block.code);
}

/** Every markdown file under docs/ (internals included), as repository-relative paths, sorted. */
export function docsPages(directory = join(root, "docs")): string[] {
  const pages: string[] = [];
  const visit = (path: string): void => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      if (statSync(full).isDirectory()) visit(full);
      else if (entry.endsWith(".md")) pages.push(relative(root, full));
    }
  };
  visit(directory);
  return pages.sort();
}

/** One compiled unit of a page: a tested block, with the earlier blocks it continues prepended. */
export interface CompiledBlock {
  /** The page, repository-relative (`docs/tools.md`). */
  readonly page: string;
  /** The block's opening-fence line. */
  readonly line: number;
  /** A file-name-safe id, unique across pages. */
  readonly id: string;
  /** The code compiled: the continued blocks' code, then this block's. */
  readonly code: string;
  /** For each line of `code` (0-based), the page line it came from (1-based). */
  readonly pageLines: readonly number[];
}

/**
 * The units that compile a page's ```ts blocks: each tested block, prefixed by
 * the blocks it continues (a chain of {@link CONTINUES} markers). Throws when a
 * block continues nothing.
 */
export function compiledBlocks(
  page: string,
  markdown = readFileSync(join(root, page), "utf8"),
): CompiledBlock[] {
  const units: CompiledBlock[] = [];
  let previous: CompiledBlock | undefined;
  const pageId = page.replace(/\.md$/, "").replace(/[^a-zA-Z0-9]+/g, "-");
  for (const block of fencedBlocks("ts", markdown, page)) {
    if (!block.tested) continue;
    const ownLines = block.code.split("\n").map((_, index) => block.line + 1 + index);
    if (block.continues && !previous) {
      throw new Error(
        `${page}:${block.line}: the block is marked ${CONTINUES} but no tested ts block precedes it`,
      );
    }
    const base = block.continues ? previous : undefined;
    const unit: CompiledBlock = {
      page,
      line: block.line,
      id: `${pageId}-line-${block.line}`,
      code: base ? `${base.code}\n${block.code}` : block.code,
      pageLines: base ? [...base.pageLines, ...ownLines] : ownLines,
    };
    units.push(unit);
    previous = unit;
  }
  return units;
}
