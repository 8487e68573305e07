import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";

// The decorator trap (DESIGN.md §7): TC39 decorators must run for real in the
// built package on Node 20, not only under the test runner's transform.
const built = join(root, "dist/examples/tools-quickstart.js");

describe("decorated classes in dist/", () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it("runs the quickstart with @llmTool methods under plain node", () => {
    const output = execFileSync(process.execPath, [built], { cwd: root, encoding: "utf8" });
    expect(output.split("\n")).toEqual([
      "quickstart",
      "├── add",
      "├── whoami",
      "├── greet",
      "└── multiply",
      "add -> 8",
      "whoami -> tenant acme",
      "greet -> Hello, Ada!",
      'multiply -> {"product":42}',
      "bad input -> Invalid arguments for tool 'add': a: Invalid input: expected number, received string",
      "sunk artifacts -> [8]",
      "",
    ]);
  });
});
