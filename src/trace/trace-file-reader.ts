import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { TraceFormatError } from "../errors/trace-format-error.js";
import { parseJsonPrefix } from "./json-prefix.js";
import { isTraceRecord, traceHeader } from "./read-trace.js";
import { type Trace, type TraceHeader, type TraceRecord, UNREADABLE_RECORD } from "./trace-format.js";

/** Options of {@link TraceFileReader}. */
export interface TraceFileReaderOptions {
  /** The most bytes of one line kept: a longer record is cut there (its long strings end with a note). @default 1_048_576 (1 MiB) */
  readonly maxRecordBytes?: number;
  /** Applied once to each new record (the studio redacts credentials with it). @default none */
  readonly map?: (record: TraceRecord) => TraceRecord;
}

const CHUNK_BYTES = 1 << 20;

/**
 * Reads a trace file that may still be growing, a little at a time: each
 * {@link TraceFileReader.read} reads only the bytes added since the last one
 * (by offset), so looking again at a large trace costs nothing. A line longer
 * than `maxRecordBytes` (a tool that returned 300 MB) is never held whole:
 * its first `maxRecordBytes` are kept and the rest skipped, and the record
 * is what those bytes hold, its cut string ending with a note and a
 * `truncatedBytes` field giving the line's size. A line that is not a
 * record becomes an {@link UNREADABLE_RECORD} record (`line`, `error`)
 * instead of failing the trace; a last line not yet ended waits for the next
 * read. A file replaced by another (smaller, or another inode) is read again
 * from its start.
 *
 * @example
 * const reader = new TraceFileReader(".embabel-ts/runs/run.jsonl");
 * reader.read(); // everything so far
 * reader.read(); // the same trace, plus what was appended since (read from disk: only that)
 */
export class TraceFileReader {
  private readonly maxRecordBytes: number;
  private offset = 0;
  private inode: number | undefined;
  private header: TraceHeader | undefined;
  private records: TraceRecord[] = [];
  private lineNumber = 0;
  /** The line being read: its kept bytes (at most `maxRecordBytes`) and its whole length so far. */
  private pending: Buffer[] = [];
  private pendingKept = 0;
  private pendingLength = 0;
  private total = 0;

  constructor(
    readonly path: string,
    private readonly options: TraceFileReaderOptions = {},
  ) {
    this.maxRecordBytes = options.maxRecordBytes ?? 1_048_576;
  }

  /** Bytes read from disk so far, over every {@link TraceFileReader.read}. */
  get bytesRead(): number {
    return this.total;
  }

  /**
   * The trace as the file holds it now. Throws a `TraceFormatError` when the
   * file cannot be read or its first line is not a trace header.
   */
  read(): Trace {
    let fd: number;
    try {
      fd = openSync(this.path, "r");
    } catch (error) {
      throw new TraceFormatError(`Cannot read the trace ${this.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      const stat = fstatSync(fd);
      if (stat.ino !== this.inode || stat.size < this.offset) this.reset(stat.ino);
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      while (this.offset < stat.size) {
        const read = readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, stat.size - this.offset), this.offset);
        if (read === 0) break;
        this.offset += read;
        this.total += read;
        this.take(buffer.subarray(0, read));
      }
    } finally {
      closeSync(fd);
    }
    if (!this.header) {
      if (this.lineNumber === 0 && this.pendingLength === 0) {
        throw new TraceFormatError(`${this.path} is empty: it is not an embabel-ts trace.`);
      }
      // The header line is not ended yet: judge what there is of it, and wait for the rest.
      return { header: traceHeader(Buffer.concat(this.pending).toString("utf8"), this.path), records: [] };
    }
    const header = this.header;
    return {
      header: header.startedAt === 0 ? { ...header, startedAt: this.records[0]?.timestamp ?? 0 } : header,
      records: this.records,
    };
  }

  private reset(inode: number | undefined): void {
    this.inode = inode;
    this.offset = 0;
    this.header = undefined;
    this.records = [];
    this.lineNumber = 0;
    this.pending = [];
    this.pendingKept = 0;
    this.pendingLength = 0;
  }

  /** Splits new bytes into lines, keeping at most `maxRecordBytes` of each. */
  private take(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline < 0 ? chunk.length : newline;
      const room = this.maxRecordBytes - this.pendingKept;
      if (room > 0 && end > start) {
        const kept = chunk.subarray(start, Math.min(end, start + room));
        this.pending.push(Buffer.from(kept)); // a copy: the chunk buffer is reused
        this.pendingKept += kept.length;
      }
      this.pendingLength += end - start;
      if (newline < 0) return;
      this.endLine();
      start = newline + 1;
    }
  }

  private endLine(): void {
    const bytes = Buffer.concat(this.pending);
    const length = this.pendingLength;
    this.pending = [];
    this.pendingKept = 0;
    this.pendingLength = 0;
    this.lineNumber += 1;
    const text = bytes.toString("utf8");
    if (this.lineNumber === 1) {
      this.header = traceHeader(length > bytes.length ? "" : text, this.path);
      return;
    }
    if (text.trim() === "") return;
    const record = this.parse(text, length);
    this.records.push(this.options.map ? this.options.map(record) : record);
  }

  private parse(text: string, length: number): TraceRecord {
    const line = this.lineNumber;
    const cut = length > this.maxRecordBytes;
    try {
      const value = cut
        ? parseJsonPrefix(
            text,
            ` … [cut: this record is ${length} bytes; the first ${this.maxRecordBytes} are shown]`,
          )
        : JSON.parse(text);
      if (isTraceRecord(value)) return cut ? { ...value, truncatedBytes: length } : value;
      return this.unreadable(line, 'a record needs "seq", "type" and "processId".', value);
    } catch (error) {
      return this.unreadable(line, `not JSON (${(error as Error).message}).`, undefined);
    }
  }

  private unreadable(line: number, error: string, value: unknown): TraceRecord {
    const known = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
    const previous = this.records[this.records.length - 1];
    return {
      seq: typeof known.seq === "number" ? known.seq : -line,
      type: UNREADABLE_RECORD,
      processId: typeof known.processId === "string" ? known.processId : (previous?.processId ?? "unknown"),
      timestamp: typeof known.timestamp === "number" ? known.timestamp : (previous?.timestamp ?? 0),
      line,
      error: `line ${line}: ${error}`,
    };
  }
}
