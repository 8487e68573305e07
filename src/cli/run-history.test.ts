import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TraceRecorder } from "../trace/trace-recorder.js";
import { KEPT_RUNS, nextRunFile } from "./run-history.js";

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Keeps `count` runs in `dir` the way the CLI does, a minute apart. */
function keepRuns(dir: string, count: number, from = Date.UTC(2026, 0, 1)): string[] {
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const file = nextRunFile(dir, "star-news", new Date(from + index * 60_000));
    TraceRecorder.toFile(file).close();
    files.push(file);
  }
  return files;
}

describe("nextRunFile", () => {
  it("keeps the newest runs and removes the oldest", () => {
    folder = mkdtempSync(join(tmpdir(), "embabel-history-"));
    const files = keepRuns(folder, KEPT_RUNS + 5);
    const left = readdirSync(folder).map((name) => join(folder as string, name));
    expect(left.sort()).toEqual(files.slice(-KEPT_RUNS).sort());
  });

  it("never removes a file the CLI did not write: other names, or its name pattern without a trace header", () => {
    folder = mkdtempSync(join(tmpdir(), "embabel-history-"));
    const mine: string[] = [];
    for (let index = 1; index <= 25; index += 1) {
      const name = join(folder, `data-${String(index).padStart(2, "0")}.jsonl`);
      writeFileSync(name, '{"row":1}\n');
      mine.push(name);
    }
    const lookalike = join(folder, "2020-01-01T00-00-00-000Z-notes.jsonl");
    writeFileSync(lookalike, '{"row":"not a trace"}\n');
    mine.push(lookalike);
    const runs = keepRuns(folder, KEPT_RUNS + 3);
    const left = new Set(readdirSync(folder).map((name) => join(folder as string, name)));
    for (const file of mine) expect(left.has(file)).toBe(true);
    expect(runs.filter((file) => left.has(file))).toEqual(runs.slice(-KEPT_RUNS));
  });

  it("creates the runs folder 0700", () => {
    folder = mkdtempSync(join(tmpdir(), "embabel-history-"));
    const dir = join(folder, ".embabel-ts", "runs");
    nextRunFile(dir, "x");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, ".embabel-ts")).mode & 0o777).toBe(0o700);
  });
});
