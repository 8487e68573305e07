import { randomUUID } from "node:crypto";
import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import type { OutputChannel, OutputChannelEvent } from "../platform/output-channel.js";
import type { AgentProcessEvent, ProcessListener } from "../platform/process-event.js";
import type { ProcessOptions } from "../platform/process-options.js";
import { jsonSafe } from "../tool/json-safe.js";
import { redactSecretsDeep } from "../tool/redact-secrets.js";
import {
  TRACE_FORMAT,
  TRACE_VERSION,
  type TraceHeader,
  type TraceRecord,
  type TraceToolDefinition,
} from "./trace-format.js";
import { TraceSink } from "./trace-sink.js";

/** Options of {@link TraceRecorder}. */
export interface TraceRecorderOptions {
  /** Facts about the run stored in the header (example, input, model). @default {} */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The run's id. @default a random UUID */
  readonly runId?: string;
  /** Receives each record after it is written (live viewers). @default undefined */
  readonly onRecord?: (record: TraceRecord) => void;
  /** The most characters of a tool result kept in a `tool-call-end` record (the loop already cuts what the model sees at its `maxToolResultChars`). @default 100000 */
  readonly maxResultChars?: number;
}

/**
 * Records agent processes as a trace: the header, then one JSON line per
 * process event as it happens (child processes included, since they share
 * their parent's listeners), written straight to its sink so a crash keeps
 * what happened. Register it with {@link TraceRecorder.attach} (listener and
 * output channel) or `ProcessOptions.withListener(recorder.listener)`.
 * Every string recorded passes through `redactSecrets` first, so a key that
 * a provider echoes in its error, or a URL's `user:password@`, never reaches
 * the trace (nor the studio, which shows what was recorded).
 *
 * @example
 * const recorder = TraceRecorder.toFile("traces/run.jsonl", { meta: { input } });
 * await platform.runAgent(agent, input, { processOptions: recorder.attach(ProcessOptions.DEFAULT) });
 * recorder.close();
 */
export class TraceRecorder {
  /** The header written first. */
  readonly header: TraceHeader;
  private readonly sink: TraceSink;
  private readonly onRecord: ((record: TraceRecord) => void) | undefined;
  private readonly maxResultChars: number;
  private seq = 0;
  private closed = false;
  /** Messages already written per tool loop. */
  private readonly messagesSent = new Map<string, number>();
  /** Tool definitions already written, by name (their JSON), and the definition objects known to match. */
  private readonly definitionsSent = new Map<string, string>();
  private readonly definitionJson = new WeakMap<object, string>();

  constructor(sink: TraceSink, options: TraceRecorderOptions = {}) {
    this.sink = sink;
    this.onRecord = options.onRecord;
    this.maxResultChars = options.maxResultChars ?? 100_000;
    this.header = {
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      runId: options.runId ?? randomUUID(),
      startedAt: Date.now(),
      meta: redactSecretsDeep((jsonSafe(options.meta ?? {}) ?? {}) as Record<string, unknown>),
    };
    this.sink.write(JSON.stringify(this.header));
  }

  /** A recorder writing to the file at `path` (replaced if present; its folder is created). */
  static toFile(path: string, options: TraceRecorderOptions = {}): TraceRecorder {
    return new TraceRecorder(TraceSink.file(path), options);
  }

  /** The listener to register on the process options. */
  readonly listener: ProcessListener = (event: AgentProcessEvent): void => {
    this.write(this.toRecord(event));
  };

  /** A channel that records what a process sends its output channel, then passes it on to `inner`. */
  outputChannel(inner?: OutputChannel): OutputChannel {
    return {
      send: (event: OutputChannelEvent) => {
        const { type, processId, ...fields } = event;
        this.write({ type: "output", processId, timestamp: Date.now(), channel: type, ...fields });
        return inner?.send(event);
      },
    };
  }

  /** `options` with this recorder's listener added and its output channel wrapped. */
  attach(options: ProcessOptions): ProcessOptions {
    return options.withListener(this.listener).withOutputChannel(this.outputChannel(options.outputChannel));
  }

  /** Records how a process ended: a `process-result` line with its status, result, tokens and cost. */
  recordResult(process: {
    readonly id: string;
    readonly status: string;
    readonly statusReason?: string | undefined;
    readonly result: unknown;
    readonly usage: unknown;
    readonly costUsd: number;
  }): void {
    this.write({
      type: "process-result",
      processId: process.id,
      timestamp: Date.now(),
      status: process.status,
      ...(process.statusReason === undefined ? {} : { reason: process.statusReason }),
      result: process.result,
      usage: process.usage,
      costUsd: process.costUsd,
    });
  }

  /** Stops recording and closes the sink; later events are ignored. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.sink.close?.();
  }

  private write(fields: Record<string, unknown>): void {
    if (this.closed) return;
    try {
      this.seq += 1;
      const record = { seq: this.seq, ...(redactSecretsDeep(jsonSafe(fields)) as object) } as TraceRecord;
      this.sink.write(JSON.stringify(record));
      this.onRecord?.(record);
    } catch {
      // Recording must never change the run.
    }
  }

  private toRecord(event: AgentProcessEvent): Record<string, unknown> {
    switch (event.type) {
      case "llm-call-start": {
        const { prompt, tools, ...rest } = event;
        const offset = this.messagesSent.get(event.loopId) ?? 0;
        const messages = prompt ? prompt.slice(offset) : [];
        if (prompt) this.messagesSent.set(event.loopId, prompt.length);
        return { ...rest, messageOffset: offset, messages, toolDefinitions: this.newDefinitions(tools) };
      }
      case "llm-call-end": {
        const { content, ...rest } = event;
        return { ...rest, response: content ?? [] };
      }
      case "tool-call-end": {
        const { result, ...rest } = event;
        const { content } = result;
        const max = this.maxResultChars;
        const kept =
          content.length > max
            ? `${content.slice(0, max)}… [${content.length - max} of ${content.length} characters not kept in the trace]`
            : content;
        return { ...rest, result: { kind: result.kind, content: kept } };
      }
      default:
        return { ...event };
    }
  }

  private newDefinitions(tools: readonly LanguageModelV3FunctionTool[] | undefined): TraceToolDefinition[] {
    if (!tools) return [];
    const fresh: TraceToolDefinition[] = [];
    for (const tool of tools) {
      let json = this.definitionJson.get(tool);
      if (json === undefined) {
        json = JSON.stringify({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
        });
        this.definitionJson.set(tool, json);
      }
      if (this.definitionsSent.get(tool.name) === json) continue;
      this.definitionsSent.set(tool.name, json);
      fresh.push(JSON.parse(json) as TraceToolDefinition);
    }
    return fresh;
  }
}
