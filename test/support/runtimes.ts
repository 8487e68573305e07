import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_MAIN } from "./cli.js";
import { root } from "./dist.js";
import { present } from "./system-component.js";

/** A JavaScript runtime the runtime tests start, from an npm package that ships its binary. */
export interface Runtime {
  /** What the tests call it (`bun`). */
  readonly name: string;
  /** The binary `npm ci` links (`node_modules/.bin/bun`). */
  readonly path: string;
  /** How to get it (`npm ci installs the dev dependency 'bun'`). */
  readonly install: string;
  /** The arguments that run a script file with every permission (`["run", "-A", file]` for Deno). */
  readonly runScript: (file: string) => string[];
}

/** Bun, from the `bun` package (its binary comes in `@oven/bun-<platform>`). */
export const BUN: Runtime = {
  name: "bun",
  path: join(root, "node_modules/.bin/bun"),
  install: "npm ci installs the dev dependency 'bun'",
  runScript: (file) => [file],
};

/** Deno, from the `deno` package (its binary comes in `@deno/<platform>`). */
export const DENO: Runtime = {
  name: "deno",
  path: join(root, "node_modules/.bin/deno"),
  install: "npm ci installs the dev dependency 'deno'",
  runScript: (file) => ["run", "-A", file],
};

/** Node, the one running the tests. */
export const NODE: Runtime = {
  name: "node",
  path: process.execPath,
  install: "it runs the tests",
  runScript: (file) => [file],
};

/**
 * Whether `runtime`'s binary is there (after `npm ci`, and for the other Node
 * lines `.ci/run`, it is): skipped locally with one line saying how to get
 * it, an error under `CI=true` (the rule of test/support/system-component.ts).
 */
export function runtimeAvailable(runtime: Runtime): boolean {
  return present(runtime.name, runtime.path, runtime.install);
}

/** What one run printed, and how it exited. */
export interface RuntimeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` from the repository root with only `PATH` (and `HOME`, for Deno's cache) in its environment. */
export function spawnRun(command: string, args: readonly string[]): Promise<RuntimeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a script file on `runtime`, with `args` after it. */
export function runScript(runtime: Runtime, file: string, args: readonly string[] = []): Promise<RuntimeRun> {
  return spawnRun(runtime.path, [...runtime.runScript(file), ...args]);
}

/** The fixture scripts under `test/fixtures/runtimes/` and the fixture MCP server. */
export const LIBRARY_SCENARIO = join(root, "test/fixtures/runtimes/library.mjs");
export const DECORATORS_SCENARIO = join(root, "test/fixtures/runtimes/decorators.ts");
export const MCP_SERVER = join(root, "test/fixtures/mcp/tools-server.mjs");

/** The JSON lines a scenario printed, by part. */
export function parts(stdout: string): Record<string, unknown> {
  const lines = stdout.split("\n").filter((line) => line.startsWith("{"));
  return Object.fromEntries(
    lines.map((line) => {
      const { part, ...rest } = JSON.parse(line) as { part: string };
      return [part, rest];
    }),
  );
}

/** What the library scenario prints on every runtime (Node 20 included). */
export const LIBRARY_PARTS = {
  "tool-loop": {
    text: "2 + 3 = 5",
    offered: [["add"], ["add"]],
    toolResult: { type: "text", value: "5" },
  },
  unfolding: {
    text: "6 × 7 = 42",
    offered: [
      ["math"],
      ["math", "add", "multiply", "math_context"],
      ["math", "add", "multiply", "math_context"],
    ],
  },
  "agentic-tool": {
    text: "The calculator says 9.",
    // The outer loop, the agentic tool's own loop over its sub-tools (two steps), the outer loop again.
    offered: [["calculator"], ["add", "multiply"], ["add", "multiply"], ["calculator"]],
  },
  "goap-agent": {
    status: "completed",
    actions: ["extractPerson", "write"],
    result: { text: "Lynda, trust your instinct; your number is 7." },
    // AsyncLocalStorage: the tool saw its process and the process's ToolCallContext; nothing leaked outside.
    seen: [{ inProcess: true, tenant: "acme" }],
    outsideProcess: true,
  },
  "mcp-stdio": {
    text: "done",
    offered: ["echo", "get_weather", "meta_echo"],
    results: [
      { type: "text", value: "hello over stdio" },
      { type: "text", value: "Sunny and 21°C in Lisbon" },
    ],
  },
};

/** The examples `embabel-ts list` names, with the flags a non-interactive run needs. */
export const EXAMPLE_RUNS: readonly (readonly string[])[] = [
  ["star-news"],
  ["concert-planner"],
  ["research-brief"],
  ["mcp-weather"],
  ["support-desk"],
  ["release-notes"],
  ["refund-desk", "--approve-all"],
  ["code-mode"],
];

/** Runs one example with `--scripted` through the built CLI on `runtime` (no trace kept). */
export function runExample(runtime: Runtime, example: readonly string[]): Promise<RuntimeRun> {
  const [name, ...flags] = example;
  return runScript(runtime, CLI_MAIN, ["run", name as string, "--scripted", "--no-keep-runs", ...flags]);
}

/** A CLI transcript with its durations (`12ms`, `<1ms`, `1.1s`) blanked, the only part that differs between runs. */
export function withoutDurations(transcript: string): string {
  return transcript.replace(/<?\d+(?:\.\d+)?m?s\b/g, "…");
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of the results. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The other Node versions test/fixtures/runtimes/node-lines.json lists, fetched by scripts/fetch-node-lines.mjs. */
export const NODE_LINES: readonly Runtime[] = (
  JSON.parse(readFileSync(join(root, "test/fixtures/runtimes/node-lines.json"), "utf8")) as {
    versions: string[];
  }
).versions.map((version) => ({
  name: `node ${version}`,
  path: join(root, "node_modules/.cache/node-lines", version, "bin/node"),
  install: "node scripts/fetch-node-lines.mjs fetches it from the npm registry (.ci/run does this)",
  runScript: (file) => [file],
}));
