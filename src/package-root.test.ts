import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codePath, codeRootFrom, packagePath, packageRoot, packageRootFrom } from "./package-root.js";

/** A package folder: embabel-ts's package.json, and another package's inside node_modules. */
function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), "embabel-root-"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "embabel-ts", version: "9.9.9" }));
  for (const dir of ["dist/src/chunks", "dist/src/studio", "src/mcp", "node_modules/other/lib"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "node_modules/other/package.json"), JSON.stringify({ name: "other" }));
  return root;
}

const root = fixture();
const outside = mkdtempSync(join(tmpdir(), "embabel-outside-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("packageRootFrom", () => {
  it("finds embabel-ts's package.json from a shared chunk as from an entry point", () => {
    expect(packageRootFrom(join(root, "dist/src/chunks"))).toBe(root);
    expect(packageRootFrom(join(root, "dist/src/studio"))).toBe(root);
  });

  it("passes over another package's package.json on the way up", () => {
    expect(packageRootFrom(join(root, "node_modules/other/lib"))).toBe(root);
  });

  it("is undefined outside the package (bundled into an app)", () => {
    expect(packageRootFrom(outside)).toBeUndefined();
  });
});

describe("codeRootFrom", () => {
  it("is dist/ when the built code runs, from a chunk or an entry point", () => {
    expect(codeRootFrom(join(root, "dist/src/chunks"))).toBe(join(root, "dist"));
    expect(codeRootFrom(join(root, "dist/src/studio"))).toBe(join(root, "dist"));
  });

  it("is the package itself when the sources run", () => {
    expect(codeRootFrom(join(root, "src/mcp"))).toBe(root);
  });

  it("is the given folder outside the package", () => {
    expect(codeRootFrom(outside)).toBe(outside);
  });
});

describe("packageRoot, packagePath and codePath", () => {
  it("point into this repository when the sources run", () => {
    const here = packageRoot();
    expect(here).toBeDefined();
    expect(packagePath("examples/mcp-weather/embabel.config.json")).toBe(
      join(here as string, "examples/mcp-weather/embabel.config.json"),
    );
    expect(codePath("src/studio/page")).toBe(join(here as string, "src/studio/page"));
  });
});
