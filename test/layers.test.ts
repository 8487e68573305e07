// Dependencies point down the layer list of docs/internals/architecture.md,
// and no import circle spans more than a handful of files. Imports of every
// kind count (static, type-only, re-exports, dynamic `import()`); a circle of
// runtime imports (what is left when types are erased) allows no exception.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./support/dist.js";
import { importCircles, readImportGraph, readLayers, upwardImports } from "./support/import-graph.js";

/** The most files one import circle may span. */
const MAX_CIRCLE = 5;

/**
 * Circles allowed to be larger, each with its reason, named by one file it holds.
 * Remove an entry when its circle is broken.
 */
const ALLOWED_CIRCLES: Readonly<Record<string, string>> = {};

const srcDir = join(root, "src");
const layers = readLayers(readFileSync(join(root, "docs/internals/architecture.md"), "utf8"));
const { all, runtime } = readImportGraph(srcDir);
const large = importCircles(all).filter((circle) => circle.length > MAX_CIRCLE);

describe("the layer list", () => {
  it("names every folder under src/ once", () => {
    const listed = layers.flat();
    const folders = readdirSync(srcDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !listed.includes(folder))).toEqual([]);
    expect(listed.filter((name, index) => listed.indexOf(name) !== index)).toEqual([]);
  });
});

describe("imports of src/", () => {
  it("point down the layer list, never up", () => {
    expect(upwardImports(all, layers)).toEqual([]);
  });

  it(`form no runtime circle of more than ${MAX_CIRCLE} files`, () => {
    expect(importCircles(runtime).filter((circle) => circle.length > MAX_CIRCLE)).toEqual([]);
  });

  it("keep every circle inside one folder", () => {
    const folders = (circle: string[]) => new Set(circle.map((file) => file.split("/")[0]));
    expect(importCircles(all).filter((circle) => folders(circle).size > 1)).toEqual([]);
  });

  it(`form no circle of more than ${MAX_CIRCLE} files beyond the allowed ones`, () => {
    const unexplained = large.filter((circle) => !circle.some((file) => file in ALLOWED_CIRCLES));
    expect(unexplained).toEqual([]);
  });

  it("keep every allowed exception real (a broken circle leaves the list)", () => {
    const stale = Object.keys(ALLOWED_CIRCLES).filter(
      (file) => !large.some((circle) => circle.includes(file)),
    );
    expect(stale).toEqual([]);
  });
});

describe("the checks", () => {
  const small = new Map<string, string[]>([
    ["tool/a.ts", ["platform/b.ts"]],
    ["platform/b.ts", ["platform/c.ts"]],
    ["platform/c.ts", ["platform/b.ts", "tool/a.ts", "package-root.ts"]],
    ["package-root.ts", ["tool/a.ts"]],
    ["index.ts", ["platform/b.ts"]],
  ]);
  const twoLayers = [["platform"], ["tool"]];

  it("report an import that points up, and a top-level file importing a folder", () => {
    expect(upwardImports(small, twoLayers)).toEqual([
      "tool/a.ts → platform/b.ts",
      "package-root.ts → tool/a.ts",
    ]);
  });

  it("report a circle across folders with all its files", () => {
    expect(importCircles(small)).toEqual([
      ["package-root.ts", "platform/b.ts", "platform/c.ts", "tool/a.ts"],
    ]);
  });

  it("read the layer names before the description", () => {
    const markdown = "<!-- layers: x -->\n```\na, b   top\nc      bottom, with a comma\n```\n";
    expect(readLayers(markdown)).toEqual([["a", "b"], ["c"]]);
  });
});
