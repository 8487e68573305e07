// No source file of src/ runs over 400 lines without saying why in its header
// (issue 37): a longer file is split by concept, or its first lines hold an
// `Over 400 lines: <reason>` comment.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./support/dist.js";

/** The most lines a source file has without a reason in its header. */
const MAX_LINES = 400;

/** How many of a file's first lines its reason may be in. */
const HEADER_LINES = 5;

/**
 * Files over the limit without a reason yet, each with why. Remove an entry
 * when its file is split or given a reason.
 */
const NOT_YET: Readonly<Record<string, string>> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isSource = entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts");
    return isSource && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Whether `text` is over the limit with no `Over 400 lines` comment in its first lines. */
function lacksReason(text: string): boolean {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length <= MAX_LINES) return false;
  return !lines
    .slice(0, HEADER_LINES)
    .some((line) => /^\s*(\/\/|\/?\*)/.test(line) && /Over 400 lines/i.test(line));
}

const srcDir = join(root, "src");
const unexplained = sourceFiles(srcDir)
  .filter((file) => lacksReason(readFileSync(file, "utf8")))
  .map((file) => relative(srcDir, file).split(sep).join("/"))
  .sort();

describe("source files", () => {
  it(`run over ${MAX_LINES} lines only with a reason in their header`, () => {
    expect(unexplained.filter((file) => !(file in NOT_YET))).toEqual([]);
  });

  it("keep every NOT_YET entry real (a file split or explained leaves the list)", () => {
    expect(Object.keys(NOT_YET).filter((file) => !unexplained.includes(file))).toEqual([]);
  });
});

describe("the check", () => {
  const long = (header: string) => `${header}\n${"x;\n".repeat(MAX_LINES)}`;

  it("passes a short file and a long one with a reason in its header", () => {
    expect(lacksReason("x;\n".repeat(MAX_LINES))).toBe(false);
    expect(lacksReason(long("// Over 400 lines: one class, a case per shape."))).toBe(false);
    expect(lacksReason(long("/**\n * Over 400 lines with reason: shared buffers.\n */"))).toBe(false);
  });

  it("fails a long file without one, or with the words outside its header or a comment", () => {
    expect(lacksReason(long("import { x } from './x.js';"))).toBe(true);
    expect(lacksReason(long('const note = "Over 400 lines";'))).toBe(true);
    expect(lacksReason(`${"x;\n".repeat(10)}// Over 400 lines: too late\n${"x;\n".repeat(MAX_LINES)}`)).toBe(
      true,
    );
  });
});
