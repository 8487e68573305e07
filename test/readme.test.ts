// Every ```ts block of README.md runs here, as written, against the built
// package (dist/), so the README cannot rot. test/package.test.ts also
// type-checks and runs the same blocks in a fresh app that installed the packed
// tarball.
//
// Convention for README authors:
// - A ```ts block is tested automatically: it must be self-contained (its own
//   imports from "embabel-ts", "embabel-ts/testing", "zod"), run with no
//   network and no API key (use ScriptedModel), and exit 0 without writing to
//   stderr.
// - To keep a block out (a fragment, pseudo-code), put `<!-- not-tested -->`
//   on the line before its fence (blank lines between are fine). Use it rarely.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { transform } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";
import {
  fencedBlocks,
  NOT_TESTED,
  type ReadmeBlock,
  testedTypeScriptBlocks,
} from "./support/readme-blocks.js";

const run = promisify(execFile);
const blocks = testedTypeScriptBlocks();

/** Writes `code` as an ES module whose package imports resolve to dist/, as they would for a user. */
async function moduleFor(id: string, code: string): Promise<string> {
  const rewritten = code
    .replaceAll('"embabel-ts/testing"', JSON.stringify(join(root, "dist/src/testing/index.js")))
    .replaceAll('"embabel-ts"', JSON.stringify(join(root, "dist/src/index.js")));
  const { code: js } = await transform(rewritten, { loader: "ts", target: "es2022", format: "esm" });
  const directory = join(root, "dist/test/readme");
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `${id}.mjs`);
  writeFileSync(file, js);
  return file;
}

const outputs = new Map<string, Promise<{ stdout: string; stderr: string }>>();

/** Runs a block once (later calls share the run) and returns its output, after checking stderr is empty. */
async function runBlock(block: ReadmeBlock): Promise<string> {
  let output = outputs.get(block.id);
  if (!output) {
    output = moduleFor(block.id, block.code).then((file) =>
      run(process.execPath, [file], { cwd: root, encoding: "utf8" }),
    );
    outputs.set(block.id, output);
  }
  const { stdout, stderr } = await output;
  expect(stderr).toBe("");
  return stdout;
}

function blockUnder(heading: string): ReadmeBlock {
  const block = blocks.find((candidate) => candidate.heading === heading);
  if (!block) throw new Error(`README.md has no tested \`\`\`ts block under '${heading}'`);
  return block;
}

describe("README blocks", () => {
  it("finds every ts block under its heading, skipping one marked not-tested and other languages", () => {
    const markdown = [
      "## One",
      "```ts",
      "one();",
      "```",
      "```bash",
      "```ts inside bash is not a block",
      "```",
      "## Two",
      NOT_TESTED,
      "",
      "```ts",
      "skipped();",
      "```",
      "### Three",
      "```ts",
      "three();",
      "```",
    ].join("\n");
    const blocks = fencedBlocks("ts", markdown);
    expect(blocks.map(({ heading, code, tested }) => ({ heading, code, tested }))).toEqual([
      { heading: "One", code: "one();", tested: true },
      { heading: "Two", code: "skipped();", tested: false },
      { heading: "Three", code: "three();", tested: true },
    ]);
    expect(blocks[2]?.id).toBe("block-3-three");
  });
});

describe("README", () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it("has TypeScript blocks, the 20-line example first", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks[0]?.heading).toBe("A 20-line example");
  });

  it("runs its 20-line example as written: the facade unfolds and the answer comes back", async () => {
    const first = blockUnder("A 20-line example");
    expect(first.code.split("\n").filter((line) => line.trim() !== "").length).toBeLessThanOrEqual(24);
    const lines = (await runBlock(first)).trim().split("\n");
    expect(lines[0]).toBe("2 + 3 = 5");
    expect(lines.slice(1).join(" ").replace(/\s+/g, " ")).toBe(
      "[ [ 'math' ], [ 'math', 'add', 'multiply', 'math_context' ], [ 'math', 'add', 'multiply', 'math_context' ] ]",
    );
  });

  it.each(blocks.slice(1).map((block) => [`${block.heading} (line ${block.line})`, block] as const))(
    "runs the block under %s",
    async (_name, block) => {
      const output = await runBlock(block);
      expect(output.length).toBeGreaterThan(0);
    },
  );

  it("shows what each documented block prints", async () => {
    expect((await runBlock(blockUnder("Tools"))).split("\n").slice(0, 3)).toEqual([
      '{"sum":8}',
      '{"customerId":7,"tenant":"acme"}',
      "Invalid arguments for tool 'add': a: Invalid input: expected number, received string; b: Invalid input: expected number, received undefined",
    ]);
    expect(await runBlock(blockUnder("Progressive tools"))).toBe(
      "database_operations [ 'query', 'insert', 'delete' ]\n",
    );
    expect(await runBlock(blockUnder("Agent Skills"))).toBe(
      "- haiku: Writes haiku. Use when asked for a short poem.\nThree lines: 5, 7 and 5 syllables.\n",
    );
    const agents = await runBlock(blockUnder("Agents, processes and subagents"));
    expect(agents).toMatch(/^completed \{\n {2}title: 'Baroque in London',/);
    expect(agents).toContain("[ 'plan' ] 0");
  });
});
