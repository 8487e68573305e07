/** The `format` field of a trace's first line. */
export const TRACE_FORMAT = "embabel-ts-trace";

/** The version of the trace format this package writes and reads. */
export const TRACE_VERSION = 1;

/**
 * The first line of a trace file: what it is, which version, and the run it
 * records. Every later line is a {@link TraceRecord}.
 */
export interface TraceHeader {
  /** Always {@link TRACE_FORMAT}. */
  readonly format: typeof TRACE_FORMAT;
  /** The format version ({@link TRACE_VERSION}). */
  readonly version: number;
  /** A unique id of the run. */
  readonly runId: string;
  /** When recording started (milliseconds since the epoch). */
  readonly startedAt: number;
  /** Free-form facts about the run (example, input, model), JSON values only. */
  readonly meta: Readonly<Record<string, unknown>>;
}

/**
 * One line after the header: a process event made JSON-safe, numbered in
 * order. Every event kind passes through with its own fields; a few are
 * reshaped so a trace stays small and readable:
 *
 * - `llm-call-start` carries `messages` (only those new since the previous
 *   call of the same loop, starting at index `messageOffset`) and
 *   `toolDefinitions` (only those not yet in the trace, or changed) instead
 *   of the full prompt and tool list; `toolNames` lists every tool offered.
 * - `llm-call-end` carries `response`, the model's reply parts.
 * - `tool-call-end` carries `result` as `{ kind, content }`.
 * - `output` records what the process sent its output channel
 *   (`channel`: `progress`, `message`, `content` or `logging`).
 */
export interface TraceRecord {
  /** Position in the trace, from 1. */
  readonly seq: number;
  /** The event type (`process-started`, `llm-call-end`, `output`, …). */
  readonly type: string;
  /** The process the event belongs to. */
  readonly processId: string;
  /** When it happened (milliseconds since the epoch). */
  readonly timestamp: number;
  /** The event's own fields. */
  readonly [field: string]: unknown;
}

/** A tool definition as recorded in a trace. */
export interface TraceToolDefinition {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
}

/** A whole trace: its header and records, in order. */
export interface Trace {
  readonly header: TraceHeader;
  readonly records: readonly TraceRecord[];
}

/**
 * The `type` of a record standing for a line or record that could not be
 * read (not JSON, no `seq`/`type`/`processId`, fields of the wrong shape);
 * its `error` says why. The studio shows it as an error row.
 */
export const UNREADABLE_RECORD = "unreadable-record";
