import { readFileSync } from "node:fs";
import { TraceFormatError } from "../errors/trace-format-error.js";
import {
  TRACE_FORMAT,
  TRACE_VERSION,
  type Trace,
  type TraceHeader,
  type TraceRecord,
} from "./trace-format.js";

/**
 * Parses the text of a trace (JSON lines: a header, then records). A last
 * line cut short (a run that crashed mid-write) is dropped; anything else
 * that is not a trace is a {@link TraceFormatError} naming the line.
 */
export function parseTrace(text: string, source = "the trace"): Trace {
  const lines = text.split("\n");
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === "") lines.pop();
  if (lines.length === 0) throw new TraceFormatError(`${source} is empty: it is not an embabel-ts trace.`);
  const header = traceHeader(lines[0] as string, source);
  const records: TraceRecord[] = [];
  for (let index = 1; index < lines.length; index += 1) {
    const last = index === lines.length - 1;
    const record = parseLine(lines[index] as string, index + 1, source, last);
    if (record === undefined) continue;
    if (!isTraceRecord(record)) {
      throw new TraceFormatError(
        `${source}, line ${index + 1}: a record needs "seq", "type" and "processId".`,
      );
    }
    records.push(record);
  }
  return {
    header: header.startedAt === 0 ? { ...header, startedAt: records[0]?.timestamp ?? 0 } : header,
    records,
  };
}

/** The header on the first line of a trace; a {@link TraceFormatError} when it is not one. */
export function traceHeader(line: string, source: string): TraceHeader {
  let header: Partial<TraceHeader> | undefined;
  try {
    header = JSON.parse(line) as Partial<TraceHeader>;
  } catch {
    header = undefined;
  }
  if (typeof header !== "object" || header === null || header.format !== TRACE_FORMAT) {
    throw new TraceFormatError(
      `${source} is not an embabel-ts trace: its first line should be a JSON object with "format": "${TRACE_FORMAT}".`,
    );
  }
  if (typeof header.version !== "number" || header.version > TRACE_VERSION) {
    throw new TraceFormatError(
      `${source} is a version ${String(header.version)} trace; this embabel-ts reads versions up to ${TRACE_VERSION}.`,
    );
  }
  return {
    format: TRACE_FORMAT,
    version: header.version,
    runId:
      typeof header.runId === "string" || typeof header.runId === "number" ? String(header.runId) : "unknown",
    startedAt: typeof header.startedAt === "number" ? header.startedAt : 0,
    meta:
      typeof header.meta === "object" && header.meta !== null && !Array.isArray(header.meta)
        ? header.meta
        : {},
  };
}

/** Reads and parses the trace file at `path` (see {@link parseTrace}). */
export function readTrace(path: string): Trace {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new TraceFormatError(`Cannot read the trace ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return parseTrace(text, path);
}

function parseLine(line: string, number: number, source: string, mayBeCut: boolean): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    if (mayBeCut) return undefined;
    throw new TraceFormatError(`${source}, line ${number}: not JSON (${(error as Error).message}).`, {
      cause: error,
    });
  }
}

/** Whether `value` has what every trace record has: `seq`, `type` and `processId`. */
export function isTraceRecord(value: unknown): value is TraceRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.seq === "number" && typeof record.type === "string" && typeof record.processId === "string"
  );
}
