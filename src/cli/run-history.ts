import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { traceFilesIn } from "../trace/trace-files.js";

/** How many runs the CLI keeps. */
export const KEPT_RUNS = 20;

/** Where kept runs go: `EMBABEL_RUNS_DIR`, else `.embabel-ts/runs` in the working directory. */
export function runHistoryDir(cwd: string, env: Readonly<Record<string, string | undefined>>): string {
  return resolve(cwd, env.EMBABEL_RUNS_DIR || join(".embabel-ts", "runs"));
}

/** Whether runs are kept: not with `--no-keep-runs`, nor with `EMBABEL_KEEP_RUNS=0`. */
export function keepsRuns(noKeepRuns: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return !noKeepRuns && env.EMBABEL_KEEP_RUNS !== "0" && env.EMBABEL_KEEP_RUNS !== "false";
}

/** A new file name in `dir` for a run of `example`, after removing the oldest runs beyond {@link KEPT_RUNS} − 1. */
export function nextRunFile(dir: string, example: string, now = new Date()): string {
  mkdirSync(dir, { recursive: true });
  // Names start with the time, so the oldest sort last.
  for (const old of traceFilesIn(dir).slice(KEPT_RUNS - 1)) rmSync(old, { force: true });
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const safe = example.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 40) || "run";
  return join(dir, `${stamp}-${safe}.jsonl`);
}
