import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTrace } from "../trace/read-trace.js";
import { parseCliArgs } from "./cli-args.js";
import { EXIT_OK, runCli } from "./run-cli.js";
import { KEPT_RUNS } from "./run-history.js";
import { memoryTerminal } from "./terminal.js";

const folders: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "embabel-run-recording-"));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

async function cli(argv: string[], cwd: string, env: Record<string, string> = {}) {
  const terminal = memoryTerminal();
  const code = await runCli(argv, { terminal, env, cwd });
  return { code, stdout: terminal.stdout, stderr: terminal.stderr };
}

describe("embabel-ts run recording", () => {
  it("--trace writes the run's trace, and the run is kept in .embabel-ts/runs", async () => {
    const cwd = tempDir();
    const run = await cli(["run", "star-news", "--scripted", "--trace", "out/star.jsonl"], cwd);
    expect(run.code).toBe(EXIT_OK);
    const trace = readTrace(join(cwd, "out/star.jsonl"));
    expect(trace.header.meta).toMatchObject({ example: "star-news", input: "Lynda, a Scorpio" });
    expect(trace.records.at(-1)).toMatchObject({ type: "process-result", status: "completed" });
    const kept = readdirSync(join(cwd, ".embabel-ts/runs"));
    expect(kept).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT.*-star-news\.jsonl$/)]);
    expect(readTrace(join(cwd, ".embabel-ts/runs", kept[0] as string)).header.runId).toBe(trace.header.runId);
  });

  it("says so when the trace file cannot be written", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "taken"), "");
    const run = await cli(["run", "star-news", "--scripted", "--trace", "taken/t.jsonl"], cwd);
    expect(run.code).toBe(2);
    expect(run.stderr[0]).toMatch(/^error: Cannot write the trace to .*taken\/t\.jsonl: /);
  });

  it("--json prints only the trace as JSON lines on standard output", async () => {
    const cwd = tempDir();
    const run = await cli(["run", "concert-planner", "--scripted", "--json", "--no-keep-runs"], cwd);
    expect(run.code).toBe(EXIT_OK);
    const lines = run.stdout.map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ format: "embabel-ts-trace", version: 1 });
    expect(lines.slice(1).map((line) => line.seq)).toEqual(lines.slice(1).map((_, index) => index + 1));
    expect(lines.some((line) => line.type === "tool-call-end" && line.toolName === "find_venues")).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: "process-result", status: "completed" });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("keeps no runs with EMBABEL_KEEP_RUNS=0, and at most the last runs otherwise", async () => {
    const cwd = tempDir();
    await cli(["run", "star-news", "--scripted"], cwd, { EMBABEL_KEEP_RUNS: "0" });
    expect(readdirSync(cwd)).toEqual([]);
    const dir = join(cwd, "kept");
    const env = { EMBABEL_RUNS_DIR: dir };
    await cli(["run", "star-news", "--scripted"], cwd, env);
    for (let index = 0; index < KEPT_RUNS; index += 1) {
      const oldRun = {
        format: "embabel-ts-trace",
        version: 1,
        runId: `old-${index}`,
        startedAt: 0,
        meta: {},
      };
      writeFileSync(
        join(dir, `2000-01-01T00-00-${String(index).padStart(2, "0")}-000Z-old.jsonl`),
        `${JSON.stringify(oldRun)}\n`,
      );
    }
    await cli(["run", "star-news", "--scripted"], cwd, env);
    const kept = readdirSync(dir).sort();
    expect(kept).toHaveLength(KEPT_RUNS);
    expect(kept.filter((name) => name.endsWith("star-news.jsonl"))).toHaveLength(2);
    expect(kept).not.toContain("2000-01-01T00-00-00-000Z-old.jsonl");
    expect(readFileSync(join(dir, kept.at(-1) as string), "utf8")).toContain('"format":"embabel-ts-trace"');
  });
});

describe("parseCliArgs (recording and studio)", () => {
  it("reads --trace, --json and --no-keep-runs", () => {
    expect(parseCliArgs(["run", "x", "--trace", "t.jsonl", "--json", "--no-keep-runs"])).toMatchObject({
      trace: "t.jsonl",
      json: true,
      noKeepRuns: true,
    });
  });

  it("reads studio with a port and trace files, and rejects a bad port", () => {
    expect(parseCliArgs(["studio", "-p", "0", "a.jsonl", "b.jsonl"])).toEqual({
      command: "studio",
      port: 0,
      files: ["a.jsonl", "b.jsonl"],
      config: undefined,
    });
    expect(parseCliArgs(["studio"])).toMatchObject({ port: 4477, files: [] });
    expect(() => parseCliArgs(["studio", "--port", "http"])).toThrow(
      "--port needs a port number from 0 to 65535 (got 'http').",
    );
  });
});
