import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The trace files (`*.jsonl`) in `dir`, by name descending (newest first for time-stamped names); none when `dir` is missing. */
export function traceFilesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .reverse()
    .map((name) => join(dir, name));
}
