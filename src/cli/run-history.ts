import { closeSync, mkdirSync, openSync, readSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { traceFilesIn } from "../trace/trace-files.js";
import { TRACE_FORMAT } from "../trace/trace-format.js";

/** How many runs the CLI keeps. */
export const KEPT_RUNS = 20;

/** The names the CLI gives kept runs: `<ISO time with - for : and .>-<example>.jsonl`. */
const KEPT_RUN_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[A-Za-z0-9_-]{1,40}\.jsonl$/;

/** Where kept runs go: `EMBABEL_RUNS_DIR`, else `.embabel-ts/runs` in the working directory. */
export function runHistoryDir(cwd: string, env: Readonly<Record<string, string | undefined>>): string {
  return resolve(cwd, env.EMBABEL_RUNS_DIR || join(".embabel-ts", "runs"));
}

/** Whether runs are kept: not with `--no-keep-runs`, nor with `EMBABEL_KEEP_RUNS=0`. */
export function keepsRuns(noKeepRuns: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return !noKeepRuns && env.EMBABEL_KEEP_RUNS !== "0" && env.EMBABEL_KEEP_RUNS !== "false";
}

/**
 * A new file name in `dir` for a run of `example`, after removing the oldest
 * kept runs beyond {@link KEPT_RUNS} − 1. Only files the CLI wrote count and
 * are removed: its own name pattern, starting with a trace header. Anything
 * else in the folder (a user's own `*.jsonl`) is left alone. The folder is
 * created 0700.
 */
export function nextRunFile(dir: string, example: string, now = new Date()): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Names start with the time, so the oldest sort last.
  const kept = traceFilesIn(dir).filter(isKeptRun);
  for (const old of kept.slice(KEPT_RUNS - 1)) rmSync(old, { force: true });
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const safe = example.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 40) || "run";
  return join(dir, `${stamp}-${safe}.jsonl`);
}

/** Whether `file` is a run the CLI kept: its name, and a trace header at its start. */
function isKeptRun(file: string): boolean {
  if (!KEPT_RUN_NAME.test(basename(file))) return false;
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const start = Buffer.alloc(64);
    const read = readSync(fd, start, 0, start.length, 0);
    return start.subarray(0, read).toString("utf8").startsWith(`{"format":"${TRACE_FORMAT}"`);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
