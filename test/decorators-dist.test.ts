import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

// The decorator trap (DESIGN.md §7): TC39 decorators must run for real in the
// built package on Node 20, not only under the test runner's transform.
const root = fileURLToPath(new URL("..", import.meta.url));
const built = join(root, "dist/examples/tools-quickstart.js");

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const entries = readdirSync(path).filter((entry) => !entry.endsWith(".test.ts"));
  return Math.max(stat.mtimeMs, ...entries.map((entry) => newestMtime(join(path, entry))));
}

function buildIsStale(): boolean {
  if (!existsSync(built)) return true;
  const sources = Math.max(
    newestMtime(join(root, "examples/tools-quickstart.ts")),
    newestMtime(join(root, "src/tool")),
  );
  return statSync(built).mtimeMs < sources;
}

describe("decorated classes in dist/", () => {
  beforeAll(() => {
    if (!buildIsStale()) return;
    try {
      execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
    } catch (error) {
      // tsc still emits when other files have type errors; only a missing output is fatal.
      if (!existsSync(built)) throw error;
    }
  }, 120_000);

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
