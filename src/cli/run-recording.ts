import { resolve } from "node:path";
import type { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import type { ProcessOptions } from "../platform/process-options.js";
import type { TraceRecord } from "../trace/trace-format.js";
import { TraceRecorder } from "../trace/trace-recorder.js";
import { TraceSink } from "../trace/trace-sink.js";
import { keepsRuns, nextRunFile, runHistoryDir } from "./run-history.js";
import type { Terminal } from "./terminal.js";
import { UsageError } from "./usage-error.js";

/** What a run records: `--trace <file>`, `--json` (lines on standard output), and the kept runs. */
export interface RunRecordingRequest {
  readonly example: string;
  readonly trace: string | undefined;
  readonly json: boolean;
  readonly noKeepRuns: boolean;
}

/** Hooks for a caller that watches the run (the studio). */
export interface RunRecordingHooks {
  /** The run's id. @default a random UUID */
  readonly runId?: string;
  /** Receives each record as it is written. */
  readonly onRecord?: (record: TraceRecord) => void;
  /** Answers a run that waits for a person (the studio's buttons); resolves to the process once it stops waiting. @default undefined (the terminal or the flags answer) */
  readonly onWaiting?: (platform: AgentPlatform, process: AgentProcess) => Promise<AgentProcess>;
}

/** The recording of one CLI run: attach it to the process options, finish it with the process. */
export interface RunRecording {
  /** The options with the recorder attached (unchanged when nothing records). */
  attach(options: ProcessOptions): ProcessOptions;
  /** Writes the result line and closes the files. */
  finish(process: AgentProcess): void;
  /** The kept run's file, if the run is kept. */
  readonly keptFile: string | undefined;
}

/**
 * Opens the sinks a run asked for; with none (no `--trace`, no `--json`,
 * runs not kept, no hooks) nothing is recorded.
 */
export function openRunRecording(
  request: RunRecordingRequest,
  context: {
    readonly terminal: Terminal;
    readonly cwd: string;
    readonly env: Readonly<Record<string, string | undefined>>;
  },
  meta: Readonly<Record<string, unknown>>,
  hooks: RunRecordingHooks = {},
): RunRecording {
  const sinks: TraceSink[] = [];
  if (request.trace) {
    const path = resolve(context.cwd, request.trace);
    try {
      sinks.push(TraceSink.file(path));
    } catch (error) {
      throw new UsageError(`Cannot write the trace to ${path}: ${(error as Error).message}`);
    }
  }
  if (request.json) sinks.push(TraceSink.lines((line) => context.terminal.out(escapeControls(line))));
  let keptFile: string | undefined;
  if (keepsRuns(request.noKeepRuns, context.env)) {
    try {
      keptFile = nextRunFile(runHistoryDir(context.cwd, context.env), request.example);
      sinks.push(TraceSink.file(keptFile));
    } catch (error) {
      keptFile = undefined;
      context.terminal.err(`note: runs are not kept: ${(error as Error).message}`);
    }
  }
  if (sinks.length === 0 && !hooks.onRecord) {
    return { attach: (options) => options, finish: () => {}, keptFile };
  }
  const recorder = new TraceRecorder(TraceSink.all(...sinks), {
    meta,
    ...(hooks.runId ? { runId: hooks.runId } : {}),
    ...(hooks.onRecord ? { onRecord: hooks.onRecord } : {}),
  });
  return {
    attach: (options) => recorder.attach(options),
    finish: (process) => {
      recorder.recordResult(process);
      recorder.close();
    },
    keptFile,
  };
}

/**
 * A JSON line with DEL and the C1 controls written as `\u` escapes too
 * (`JSON.stringify` escapes only C0), so no raw control reaches the terminal
 * and the line still parses to the same value.
 */
function escapeControls(line: string): string {
  return line.replace(/[\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
