import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TraceFormatError } from "../errors/trace-format-error.js";
import { parseTrace, readTrace } from "./read-trace.js";

const header = JSON.stringify({
  format: "embabel-ts-trace",
  version: 1,
  runId: "r1",
  startedAt: 5,
  meta: {},
});
const record = (seq: number) => JSON.stringify({ seq, type: "goal-achieved", processId: "p", timestamp: 6 });

function failure(text: string): TraceFormatError {
  try {
    parseTrace(text, "run.jsonl");
  } catch (error) {
    if (TraceFormatError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("parsed");
}

describe("parseTrace", () => {
  it("reads the header and the records", () => {
    const trace = parseTrace([header, record(1), record(2), ""].join("\n"));
    expect(trace.header).toMatchObject({ runId: "r1", version: 1, startedAt: 5 });
    expect(trace.records.map((entry) => entry.seq)).toEqual([1, 2]);
  });

  it("drops a last line cut short by a crash", () => {
    const trace = parseTrace([header, record(1), '{"seq":2,"type":"tool-ca'].join("\n"));
    expect(trace.records).toHaveLength(1);
  });

  it("says a file is not a trace when its first line is not our header", () => {
    expect(failure("hello world").message).toBe(
      'run.jsonl is not an embabel-ts trace: its first line should be a JSON object with "format": "embabel-ts-trace".',
    );
    expect(failure('{"format":"otlp"}').message).toMatch(/not an embabel-ts trace/);
    expect(failure("").message).toBe("run.jsonl is empty: it is not an embabel-ts trace.");
  });

  it("names the line that is not JSON, or not a record", () => {
    expect(failure([header, "{oops", record(2)].join("\n")).message).toMatch(/^run\.jsonl, line 2: not JSON/);
    expect(failure([header, '{"seq":1}', record(2)].join("\n")).message).toBe(
      'run.jsonl, line 2: a record needs "seq", "type" and "processId".',
    );
  });

  it("refuses a newer format version", () => {
    const newer = JSON.stringify({ format: "embabel-ts-trace", version: 99 });
    expect(failure(newer).message).toBe(
      "run.jsonl is a version 99 trace; this embabel-ts reads versions up to 1.",
    );
  });
});

describe("readTrace", () => {
  it("reads a file, and says so when it cannot", () => {
    const folder = mkdtempSync(join(tmpdir(), "embabel-read-trace-"));
    try {
      const path = join(folder, "t.jsonl");
      writeFileSync(path, `${header}\n${record(1)}\n`);
      expect(readTrace(path).records).toHaveLength(1);
      expect(() => readTrace(join(folder, "missing.jsonl"))).toThrow(
        /Cannot read the trace .*missing\.jsonl/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
