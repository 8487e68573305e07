import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../support/dist.js";
import { COMPATIBILITY_DATE } from "../support/workerd.js";

// docs/runtimes.md shows code the runtime tests run, and names the versions they run on.

const doc = readFileSync(join(root, "docs/runtimes.md"), "utf8");

/** Each fenced block after a `<!-- tested: <file> -->` line, with that file. */
function testedBlocks(): { file: string; code: string }[] {
  return [...doc.matchAll(/<!-- tested: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)].map((match) => ({
    file: match[1] as string,
    code: match[2] as string,
  }));
}

describe("docs/runtimes.md", () => {
  it("shows code exactly as the fixtures the runtime tests run hold it", () => {
    const blocks = testedBlocks();
    expect(blocks.map((block) => block.file)).toEqual([
      "test/fixtures/runtimes/decorators.ts",
      "test/fixtures/runtimes/worker.mjs",
    ]);
    for (const { file, code } of blocks) {
      expect({ file, found: readFileSync(join(root, file), "utf8").includes(code) }).toEqual({
        file,
        found: true,
      });
    }
  });

  it("names the versions the runtime tests run on", () => {
    const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const { versions } = JSON.parse(
      readFileSync(join(root, "test/fixtures/runtimes/node-lines.json"), "utf8"),
    ) as { versions: string[] };
    const named = [
      `Bun | ${packageJson.devDependencies.bun}`,
      `Deno | ${packageJson.devDependencies.deno}`,
      `workerd ${packageJson.devDependencies.workerd}`,
      `compatibility date ${COMPATIBILITY_DATE}`,
      ...versions,
    ];
    for (const text of named) expect({ text, named: doc.includes(text) }).toEqual({ text, named: true });
  });
});
