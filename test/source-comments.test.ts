import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Comments describe the code, not how it was written or who will change it.

const root = join(import.meta.dirname, "..", "src");
const STALE = [/CONTRACT FILE/, /\bTODO\b/, /\bFIXME\b/, /loop helper replaces/i];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("source comments", () => {
  it("carry no notes about how the code was written (contract files, TODOs)", () => {
    const files = sourceFiles(root);
    expect(files.length).toBeGreaterThan(100);
    const stale = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) =>
          STALE.some((pattern) => pattern.test(line))
            ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(stale).toEqual([]);
  });
});
