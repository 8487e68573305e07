import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TraceFileReader } from "./trace-file-reader.js";
import { UNREADABLE_RECORD } from "./trace-format.js";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "embabel-reader-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const header = JSON.stringify({
  format: "embabel-ts-trace",
  version: 1,
  runId: "r1",
  startedAt: 5,
  meta: {},
});
const record = (seq: number, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ seq, type: "output", processId: "p", timestamp: seq, ...fields });

describe("TraceFileReader", () => {
  it("reads only the bytes added since the last read", () => {
    const path = join(folder, "run.jsonl");
    writeFileSync(path, `${header}\n${record(1)}\n`);
    const reader = new TraceFileReader(path);
    expect(reader.read().records.map((r) => r.seq)).toEqual([1]);
    expect(reader.bytesRead).toBe(statSync(path).size);
    reader.read();
    expect(reader.bytesRead).toBe(statSync(path).size); // nothing new: nothing read
    const added = `${record(2)}\n${record(3)}\n`;
    appendFileSync(path, added);
    const before = reader.bytesRead;
    expect(reader.read().records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(reader.bytesRead - before).toBe(Buffer.byteLength(added));
  });

  it("waits for a line not yet ended, and reads a replaced file again from its start", () => {
    const path = join(folder, "run.jsonl");
    const second = record(2);
    writeFileSync(path, `${header}\n${record(1)}\n${second.slice(0, 10)}`);
    const reader = new TraceFileReader(path);
    expect(reader.read().records).toHaveLength(1);
    appendFileSync(path, `${second.slice(10)}\n`);
    expect(reader.read().records.map((r) => r.seq)).toEqual([1, 2]);
    rmSync(path);
    writeFileSync(path, `${header}\n${record(7)}\n`);
    expect(reader.read().records.map((r) => r.seq)).toEqual([7]);
  });

  it("cuts a record longer than maxRecordBytes without holding it, keeping what comes before the cut", () => {
    const path = join(folder, "big.jsonl");
    const content = "x".repeat(5_000_000);
    const big = JSON.stringify({
      seq: 2,
      type: "tool-call-end",
      processId: "p",
      timestamp: 2,
      toolCallId: "c1",
      toolName: "huge",
      result: { kind: "text", content },
    });
    writeFileSync(path, `${header}\n${record(1)}\n${big}\n${record(3)}\n`);
    const reader = new TraceFileReader(path, { maxRecordBytes: 65_536 });
    const { records } = reader.read();
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3]);
    const cut = records[1] as unknown as Record<string, unknown> & {
      result: { kind: string; content: string };
    };
    expect(cut).toMatchObject({
      type: "tool-call-end",
      toolCallId: "c1",
      toolName: "huge",
      truncatedBytes: big.length,
    });
    expect(cut.result.kind).toBe("text");
    expect(cut.result.content).toMatch(/^x+ … \[cut: this record is \d+ bytes; the first 65536 are shown\]$/);
    expect(JSON.stringify(cut).length).toBeLessThan(66_000);
    expect(reader.bytesRead).toBe(statSync(path).size);
  });

  it("turns lines that are not records into unreadable records, and keeps the rest", () => {
    const path = join(folder, "odd.jsonl");
    writeFileSync(path, `${header}\n${record(1)}\nnot json\n{"seq":"x"}\n${record(4)}\n`);
    const { records } = new TraceFileReader(path).read();
    expect(records.map((r) => r.type)).toEqual(["output", UNREADABLE_RECORD, UNREADABLE_RECORD, "output"]);
    expect(records[1]?.error).toMatch(/^line 3: not JSON/);
    expect(records[2]?.error).toBe('line 4: a record needs "seq", "type" and "processId".');
  });

  it("says a file is not a trace, or is missing", () => {
    const path = join(folder, "notes.jsonl");
    writeFileSync(path, "these are my notes\n");
    expect(() => new TraceFileReader(path).read()).toThrow(/is not an embabel-ts trace/);
    expect(() => new TraceFileReader(join(folder, "none.jsonl")).read()).toThrow(/Cannot read the trace/);
    writeFileSync(path, "");
    expect(() => new TraceFileReader(path).read()).toThrow(/is empty/);
  });
});
