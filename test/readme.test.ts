import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { transform } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";

/** The first ```ts block of the README, the one under "A 20-line example". */
function readmeExample(): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const match = /## A 20-line example[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme);
  if (!match?.[1]) throw new Error("README.md has no ```ts block under '## A 20-line example'");
  return match[1];
}

describe("README", () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it("runs its 20-line example as written, against the built package", async () => {
    const source = readmeExample();
    expect(source.split("\n").filter((line) => line.trim() !== "").length).toBeLessThanOrEqual(24);
    // Only the package specifiers change: "embabel-ts" resolves to dist/ as it would for a user.
    const rewritten = source
      .replaceAll('"embabel-ts/testing"', JSON.stringify(join(root, "dist/src/testing/index.js")))
      .replaceAll('"embabel-ts"', JSON.stringify(join(root, "dist/src/index.js")));
    const { code } = await transform(rewritten, { loader: "ts", target: "es2022", format: "esm" });
    const directory = join(root, "dist/test");
    mkdirSync(directory, { recursive: true });
    const file = join(directory, "readme-example.mjs");
    writeFileSync(file, code);

    const output = execFileSync(process.execPath, [file], { cwd: root, encoding: "utf8" });

    const lines = output.trim().split("\n");
    expect(lines[0]).toBe("2 + 3 = 5");
    expect(lines.slice(1).join(" ").replace(/\s+/g, " ")).toBe(
      "[ [ 'math' ], [ 'math', 'add', 'multiply', 'math_context' ], [ 'math', 'add', 'multiply', 'math_context' ] ]",
    );
  });
});
