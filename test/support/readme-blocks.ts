import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./dist.js";

/** One fenced code block of README.md. */
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

/** The marker that, on a line before a ```ts fence (blank lines allowed), keeps that block out of the tests. */
export const NOT_TESTED = "<!-- not-tested -->";

/** Every fenced block of `language` in `markdown`, in order, with whether it is marked {@link NOT_TESTED}. */
export function fencedBlocks(
  language: string,
  markdown = readFileSync(join(root, "README.md"), "utf8"),
): (ReadmeBlock & { readonly tested: boolean })[] {
  const lines = markdown.split("\n");
  const blocks: (ReadmeBlock & { tested: boolean })[] = [];
  let heading = "";
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, "");
    if (line.trim() !== `\`\`\`${language}`) {
      if (line.startsWith("```")) index = closingFence(lines, index); // skip other blocks whole
      continue;
    }
    const end = closingFence(lines, index);
    let previous = index - 1;
    while (previous >= 0 && lines[previous]?.trim() === "") previous--;
    const slug = heading
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    blocks.push({
      id: `block-${blocks.length + 1}-${slug}`,
      heading,
      line: index + 1,
      code: lines.slice(index + 1, end).join("\n"),
      tested: lines[previous]?.trim() !== NOT_TESTED,
    });
    index = end;
  }
  return blocks;
}

function closingFence(lines: readonly string[], open: number): number {
  for (let index = open + 1; index < lines.length; index++) if (lines[index]?.trim() === "```") return index;
  throw new Error(`README.md: the code block opened on line ${open + 1} is never closed`);
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
