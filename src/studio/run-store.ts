import { createHash } from "node:crypto";
import { basename } from "node:path";
import { redactSecretsDeep } from "../tool/redact-secrets.js";
import { TraceFileReader } from "../trace/trace-file-reader.js";
import { traceFilesIn } from "../trace/trace-files.js";
import type { Trace, TraceHeader, TraceRecord } from "../trace/trace-format.js";
import { TraceTree } from "../trace/trace-tree.js";

/** One run in the studio's list. */
export interface RunSummary {
  /** The run id (a trace's `runId`), or `file-<hash of its path>` for a file that could not be read. */
  readonly id: string;
  /** Where it comes from. */
  readonly source: "live" | "kept" | "file";
  /** The file, for kept runs and files. */
  readonly file?: string;
  /** What ran (`example` from the trace's meta, else the root agent). */
  readonly title: string;
  /** The input, when the trace has one. */
  readonly input?: string;
  readonly status: string;
  readonly startedAt: number;
  readonly durationMs?: number;
  readonly tokens: number;
  readonly costUsd: number;
  /** Why the file could not be read. */
  readonly error?: string;
}

/** A run being recorded now, in memory. */
class LiveRun {
  readonly records: TraceRecord[] = [];
  private readonly listeners = new Set<(record: TraceRecord | undefined) => void>();
  finished = false;

  constructor(readonly header: TraceHeader) {}

  add(record: TraceRecord): void {
    this.records.push(record);
    for (const listener of this.listeners) listener(record);
  }

  finish(): void {
    this.finished = true;
    for (const listener of this.listeners) listener(undefined);
    this.listeners.clear();
  }

  /** Calls `listener` with each new record, then with `undefined` when the run ends; returns the unsubscribe. */
  subscribe(listener: (record: TraceRecord | undefined) => void): () => void {
    if (this.finished) {
      listener(undefined);
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

type Loaded =
  | {
      readonly ok: true;
      readonly trace: Trace;
      readonly source: RunSummary["source"];
      readonly file?: string;
    }
  | { readonly ok: false; readonly error: string; readonly file: string };

/**
 * The runs the studio shows: live runs (started from the page), the CLI's
 * kept runs (looked at again on each request, so new ones appear), and trace
 * files named on the command line. Files are read by offset: a look reads
 * only the bytes added since the previous one, and one record holds at most
 * `maxRecordBytes`. A file that is not a trace is listed with the reason
 * instead of failing the studio; credentials in what files hold are redacted.
 */
export class RunStore {
  private readonly live = new Map<string, LiveRun>();
  private readonly readers = new Map<string, TraceFileReader>();
  /** The last summary of each file, by the file's record count and first record: recomputed only when it grew. */
  private readonly summaries = new Map<string, { readonly key: string; readonly summary: RunSummary }>();

  constructor(
    private readonly options: {
      readonly keptDir?: string;
      readonly files?: readonly string[];
      /** How many ended live runs to keep in memory; the oldest go first. @default 100 */
      readonly keepLiveRuns?: number;
      /** The most bytes of one record kept from a file. @default 1_048_576 */
      readonly maxRecordBytes?: number;
    } = {},
  ) {}

  /** Starts a live run with this header. */
  startLive(header: TraceHeader): void {
    this.live.set(header.runId, new LiveRun(header));
  }

  /** Adds a record to the live run `runId`, its strings cut to `maxRecordBytes` characters (as records read from files are). */
  addLive(runId: string, record: TraceRecord): void {
    this.live.get(runId)?.add(capStrings(record, this.options.maxRecordBytes ?? 1_048_576) as TraceRecord);
  }

  /** Marks the live run `runId` as ended. */
  finishLive(runId: string): void {
    const run = this.live.get(runId);
    if (!run || run.finished) return;
    run.finish();
    const keep = this.options.keepLiveRuns ?? 100;
    let ended = 0;
    for (const other of this.live.values()) if (other.finished) ended += 1;
    for (const [id, other] of this.live) {
      if (ended <= keep) break;
      if (!other.finished) continue;
      this.live.delete(id);
      ended -= 1;
    }
  }

  /** Subscribes to a live run; `undefined` when `runId` is not live (or already over). */
  subscribe(runId: string, listener: (record: TraceRecord | undefined) => void): (() => void) | undefined {
    const run = this.live.get(runId);
    if (!run || run.finished) return undefined;
    return run.subscribe(listener);
  }

  /** Every run, newest first. */
  list(): RunSummary[] {
    const seen = new Set<string>();
    const summaries: RunSummary[] = [];
    for (const loaded of this.loadAll()) {
      if (!loaded.ok) {
        summaries.push({
          id: unreadableId(loaded.file),
          source: "file",
          file: loaded.file,
          title: basename(loaded.file),
          status: "unreadable",
          startedAt: 0,
          tokens: 0,
          costUsd: 0,
          error: loaded.error,
        });
        continue;
      }
      const { header } = loaded.trace;
      if (seen.has(header.runId)) continue;
      seen.add(header.runId);
      const key = `${loaded.trace.records.length}:${loaded.trace.records[0]?.seq}`;
      const cached = loaded.file && loaded.source !== "live" ? this.summaries.get(loaded.file) : undefined;
      if (cached?.key === key) {
        summaries.push(cached.summary);
        continue;
      }
      const summary = summarize(loaded);
      if (loaded.file && loaded.source !== "live") this.summaries.set(loaded.file, { key, summary });
      summaries.push(summary);
    }
    return summaries.sort((a, b) => b.startedAt - a.startedAt);
  }

  /** The run `id`: its trace, or why it cannot be shown (`undefined` when there is no such run). */
  find(
    id: string,
  ): { readonly trace: Trace; readonly live: boolean } | { readonly error: string } | undefined {
    const liveRun = this.live.get(id);
    if (liveRun) {
      return { trace: { header: liveRun.header, records: [...liveRun.records] }, live: !liveRun.finished };
    }
    for (const loaded of this.loadAll()) {
      if (!loaded.ok) {
        if (id === unreadableId(loaded.file)) return { error: loaded.error };
        continue;
      }
      if (loaded.trace.header.runId === id) return { trace: loaded.trace, live: false };
    }
    return undefined;
  }

  private loadAll(): Loaded[] {
    const loaded: Loaded[] = [...this.live.values()].map((run) => ({
      ok: true,
      trace: { header: run.header, records: run.records },
      source: "live",
    }));
    const files = [...(this.options.files ?? [])];
    for (const file of files) loaded.push(this.load(file, "file"));
    if (this.options.keptDir) {
      const kept = traceFilesIn(this.options.keptDir);
      for (const file of kept) loaded.push(this.load(file, "kept"));
      files.push(...kept);
    }
    // Forget files that are gone (rotated away).
    for (const file of this.readers.keys()) {
      if (!files.includes(file)) {
        this.readers.delete(file);
        this.summaries.delete(file);
      }
    }
    return loaded;
  }

  private load(file: string, source: "kept" | "file"): Loaded {
    let reader = this.readers.get(file);
    if (!reader) {
      reader = new TraceFileReader(file, {
        ...(this.options.maxRecordBytes === undefined ? {} : { maxRecordBytes: this.options.maxRecordBytes }),
        map: redactSecretsDeep,
      });
      this.readers.set(file, reader);
    }
    try {
      const trace = reader.read();
      return {
        ok: true,
        trace: { header: redactSecretsDeep(trace.header), records: trace.records },
        source,
        file,
      };
    } catch (error) {
      return { ok: false, error: (error as Error).message, file };
    }
  }
}

/** The requests of a run's `awaiting-response` records not yet answered by a `response-received` record. */
export function openRequests(records: readonly TraceRecord[]): unknown[] {
  const open = new Map<string, unknown>();
  for (const record of records as readonly Record<string, unknown>[]) {
    if (record.type === "awaiting-response" && Array.isArray(record.requests)) {
      for (const request of record.requests as { id: string; processId?: string }[])
        open.set(request.id, request);
    } else if (record.type === "response-received") open.delete(record.requestId as string);
  }
  return [...open.values()];
}

/** One run's line in the list. */
function summarize(loaded: Extract<Loaded, { ok: true }>): RunSummary {
  const { header } = loaded.trace;
  const view = new TraceTree(loaded.trace).view();
  // A live run's process stays `running` in its trace while it waits for a person.
  const waiting =
    loaded.source === "live" && view.status === "running" && openRequests(loaded.trace.records).length > 0;
  const meta = header.meta;
  return {
    id: header.runId,
    source: loaded.source,
    ...(loaded.file ? { file: loaded.file } : {}),
    title: typeof meta.example === "string" ? meta.example : (view.roots[0]?.agent ?? "run"),
    ...(typeof meta.input === "string" ? { input: meta.input } : {}),
    status: waiting ? "waiting" : view.status,
    startedAt: header.startedAt,
    ...(view.durationMs === undefined ? {} : { durationMs: view.durationMs }),
    tokens: view.totals.tokens.totalTokens,
    costUsd: view.totals.costUsd,
  };
}

/** `value` with every string longer than `max` characters cut there, with a note; unchanged (the same object) when none is. */
function capStrings(value: unknown, max: number, depth = 0): unknown {
  if (typeof value === "string") {
    return value.length <= max
      ? value
      : `${value.slice(0, max)} … [cut: this text is ${value.length} characters; the first ${max} are shown]`;
  }
  if (typeof value !== "object" || value === null || depth > 64) return value;
  let copy: Record<string, unknown> | unknown[] | undefined;
  for (const [key, item] of Object.entries(value)) {
    const capped = capStrings(item, max, depth + 1);
    if (capped === item) continue;
    copy ??= Array.isArray(value) ? [...value] : { ...value };
    Object.defineProperty(copy, key, { value: capped, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}

function unreadableId(file: string): string {
  return `file-${createHash("sha1").update(file).digest("hex").slice(0, 12)}`;
}
