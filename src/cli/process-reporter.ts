// Over 400 lines: one listener, a case per process event kind, each printing its line; split by event family if it grows.
import { CommunicateTool } from "../builtins/communicate-tool.js";
import { ProgressTool } from "../builtins/progress-tool.js";
import type { AgentProcessStatus } from "../platform/agent-process-status.js";
import { retryLine } from "../platform/describe-event.js";
import { formatDuration } from "../platform/format-duration.js";
import type { OutputChannel, OutputChannelEvent } from "../platform/output-channel.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { terminalSafe } from "../tool/terminal-safe.js";
import type { ToolResult } from "../tool/tool-result.js";
import { indent, lineTerminal, oneLine, type Terminal } from "./terminal.js";

export { formatDuration };

/** Options of {@link ProcessReporter}. */
export interface ProcessReporterOptions {
  /** Print the provider of each LLM call, full tool results and every replan. @default false */
  readonly verbose?: boolean;
}

interface ProcessView {
  readonly depth: number;
  /** The remaining actions of the last plan printed. */
  expected: readonly string[];
  llmCalls: number;
  llmRetries: number;
  toolCalls: number;
  tokens: number;
  costUsd: number;
  actions: number;
  finished?: { readonly status: AgentProcessStatus; readonly reason?: string; readonly durationMs: number };
}

/** Totals over a run and every child process it started. */
export interface RunTotals {
  /** LLM calls made. */
  readonly llmCalls: number;
  /** LLM calls retried after a retryable failure (429, 5xx, a connection reset). */
  readonly llmRetries: number;
  /** Tool calls made. */
  readonly toolCalls: number;
  /** Input and output tokens reported by the models. */
  readonly tokens: number;
  /** Processes started: the run itself, then one per subagent run. */
  readonly processes: number;
  /** The cost in US dollars of the calls whose model has a known price. */
  readonly costUsd: number;
  /** Models called whose price is unknown (their calls are not in {@link RunTotals.costUsd}). */
  readonly unpricedModels: readonly string[];
}

/**
 * Prints what agent processes do, as it happens: each new plan, each action
 * with its duration, each LLM call with its tokens, cost and duration, each
 * tool call with its arguments, result and duration, and child processes
 * (subagents) indented under the tool call that started them. Register
 * {@link ProcessReporter.listener} as a process listener; {@link traceRenderer}
 * makes one that writes lines to a function.
 */
export class ProcessReporter {
  private readonly processes = new Map<string, ProcessView>();
  private readonly verbose: boolean;
  /** The running tool calls, innermost last: where child processes and nested loops (agentic tools) indent. */
  private openToolDepth: { readonly processId: string; readonly depth: number }[] = [];
  /** The depth of each tool loop's lines; a loop started inside a tool call of its process is indented under it. */
  private readonly loopDepths = new Map<string, number>();
  /** The depth of each running tool call's line, by process and call id: a call made inside it (a code-mode program's) is indented under it. */
  private readonly toolDepths = new Map<string, number>();
  /** Models called without a known price. */
  private readonly unpriced = new Set<string>();
  /** Running calls of `progress` and `communicate`: their output channel line stands for them. */
  private readonly quietCalls = new Set<string>();

  constructor(
    private readonly terminal: Terminal,
    options: ProcessReporterOptions = {},
  ) {
    this.verbose = options.verbose ?? false;
  }

  /** The listener to register on the process options. */
  readonly listener = (event: AgentProcessEvent): void => {
    try {
      this.handle(event);
    } catch {
      // A reporting problem must never disturb the run.
    }
  };

  /** The output channel to give the processes: progress, messages and log lines, indented like their process. */
  readonly outputChannel: OutputChannel = {
    send: (event: OutputChannelEvent): void => {
      // Inside a tool call of the same process (an agentic tool's nested loop), under that call.
      const open = this.openToolDepth[this.openToolDepth.length - 1];
      const depth =
        open?.processId === event.processId ? open.depth + 2 : this.view(event.processId).depth + 1;
      const { style } = this.terminal;
      const prefix = "  ".repeat(depth);
      switch (event.type) {
        case "progress":
          this.terminal.out(`${prefix}${style.cyan("…")} ${event.message}`);
          return;
        case "message":
          this.terminal.out(`${prefix}${style.cyan("✉")} ${event.message.content}`);
          return;
        case "logging":
          this.terminal.out(style.dim(indent(event.message, `${prefix}│ `)));
          return;
        case "content":
          this.terminal.out(`${prefix}${oneLine(JSON.stringify(event.content) ?? "")}`);
          return;
      }
    },
  };

  /** Totals over every process seen. */
  get totals(): RunTotals {
    let llmCalls = 0;
    let llmRetries = 0;
    let toolCalls = 0;
    let tokens = 0;
    let costUsd = 0;
    for (const view of this.processes.values()) {
      llmCalls += view.llmCalls;
      llmRetries += view.llmRetries;
      toolCalls += view.toolCalls;
      tokens += view.tokens;
      costUsd += view.costUsd;
    }
    const unpricedModels = [...this.unpriced];
    return {
      llmCalls,
      llmRetries,
      toolCalls,
      tokens,
      processes: this.processes.size,
      costUsd,
      unpricedModels,
    };
  }

  /**
   * The closing line of a run, from the events seen: status (and reason),
   * duration, actions, LLM calls, tool calls, tokens, subagent runs and cost,
   * e.g. `✔ completed 1.2s · 3 actions · 2 LLM calls · 2 tool calls · 1,640 tokens · $0.0012`.
   * `undefined` until the top-level process has finished. Safe to print:
   * the reason has no control or escape sequences and no credentials.
   */
  summary(): string | undefined {
    const top = [...this.processes.values()].find((view) => view.depth === 0 && view.finished);
    if (!top?.finished) return undefined;
    const { style } = this.terminal;
    const totals = this.totals;
    const facts = [
      formatDuration(top.finished.durationMs),
      plural(top.actions, "action"),
      plural(totals.llmCalls, "LLM call"),
      ...(totals.llmRetries > 0 ? [plural(totals.llmRetries, "LLM retry", "LLM retries")] : []),
      plural(totals.toolCalls, "tool call"),
      `${formatCount(totals.tokens)} tokens`,
    ];
    if (totals.processes > 1) facts.push(plural(totals.processes - 1, "subagent run"));
    const cost = formatRunCost(totals);
    if (cost) facts.push(cost);
    const { status, reason } = top.finished;
    const head =
      status === "completed"
        ? style.green("✔ completed")
        : `${style.red(`✘ ${status}`)}${reason ? `: ${terminalSafe(reason)}` : ""}`;
    return `${head} ${style.dim(facts.join(" · "))}`;
  }

  private view(processId: string): ProcessView {
    let view = this.processes.get(processId);
    if (!view) {
      view = {
        depth: this.currentToolDepth(),
        expected: [],
        llmCalls: 0,
        llmRetries: 0,
        toolCalls: 0,
        tokens: 0,
        costUsd: 0,
        actions: 0,
      };
      this.processes.set(processId, view);
    }
    return view;
  }

  private currentToolDepth(): number {
    const open = this.openToolDepth[this.openToolDepth.length - 1];
    return open === undefined ? 0 : open.depth + 2;
  }

  private loopDepth(event: { readonly processId: string; readonly loopId: string }): number {
    let depth = this.loopDepths.get(event.loopId);
    if (depth === undefined) {
      const open = this.openToolDepth[this.openToolDepth.length - 1];
      depth = open?.processId === event.processId ? open.depth + 1 : this.view(event.processId).depth;
      this.loopDepths.set(event.loopId, depth);
    }
    return depth;
  }

  private line(depth: number, text: string): void {
    this.terminal.out(`${"  ".repeat(depth)}${text}`);
  }

  private handle(event: AgentProcessEvent): void {
    const { style } = this.terminal;
    switch (event.type) {
      case "process-started": {
        const parent = event.parentId ? this.processes.get(event.parentId) : undefined;
        const known = this.processes.has(event.processId);
        const view = this.view(event.processId);
        if (!known && parent) Object.assign(view, { depth: Math.max(view.depth, parent.depth + 2) });
        if (view.depth > 0 && event.agent) {
          this.line(view.depth, `${style.magenta("▶ subagent")} ${style.bold(event.agent)}`);
        }
        return;
      }
      case "plan-formulated": {
        const view = this.view(event.processId);
        const unchanged =
          view.expected.length === event.actions.length &&
          view.expected.every((action, index) => action === event.actions[index]);
        if (!unchanged || this.verbose) {
          const steps = event.actions.length > 0 ? event.actions.join(" → ") : "(goal already reached)";
          this.line(view.depth, `${style.cyan("Plan")} ${steps} ${style.dim(`(goal ${event.goal})`)}`);
        }
        view.expected = event.actions.slice(1);
        return;
      }
      case "action-start":
        this.line(this.view(event.processId).depth, `${style.bold("▶")} ${style.bold(event.action)}`);
        return;
      case "action-end": {
        const view = this.view(event.processId);
        // An action that waits for a person runs again once answered: it counts once, when it ends.
        if (event.outcome !== "waiting") view.actions += 1;
        const took = style.dim(`(${formatDuration(event.durationMs)})`);
        if (event.outcome === "succeeded")
          this.line(view.depth, `${style.green("✓")} ${event.action} ${took}`);
        else if (event.outcome === "waiting")
          this.line(view.depth, `${style.yellow("⏸")} ${event.action} waits for a person ${took}`);
        else if (event.outcome === "replan")
          this.line(view.depth, `${style.yellow("↺")} ${event.action} ${took}`);
        else {
          const reason = event.error instanceof Error ? `: ${event.error.message}` : "";
          this.line(view.depth, `${style.red("✗")} ${event.action} ${event.outcome}${reason} ${took}`);
        }
        return;
      }
      case "awaiting-response":
        for (const request of event.requests) {
          this.line(this.view(event.processId).depth + 1, style.yellow(`⏸ ${request.id} ${request.what}`));
        }
        return;
      case "response-received": {
        const verdict = event.approved === undefined ? "answered" : event.approved ? "approved" : "denied";
        const mark = event.approved === false ? style.red("✗") : style.green("✓");
        this.line(
          this.view(event.processId).depth + 1,
          `${mark} ${event.requestId} ${verdict} by ${event.respondent} ${style.dim(`(waited ${formatDuration(event.waitedMs)})`)}`,
        );
        return;
      }
      case "replan-requested":
        this.line(
          this.view(event.processId).depth + 1,
          style.yellow(`↺ ${event.action} asked to replan: ${event.reason}`),
        );
        return;
      case "llm-call-end": {
        const view = this.view(event.processId);
        view.llmCalls += 1;
        view.tokens += event.usage.totalTokens;
        if (event.costUsd === undefined) this.unpriced.add(event.modelId);
        else view.costUsd += event.costUsd;
        const model = this.verbose ? `${event.provider}/${event.modelId}` : event.modelId;
        const { inputTokens, outputTokens, totalTokens } = event.usage;
        const facts = [
          `LLM ${model}`,
          `${formatCount(totalTokens)} tokens (${formatCount(inputTokens)} in, ${formatCount(outputTokens)} out)`,
          ...(event.costUsd === undefined ? [] : [formatUsd(event.costUsd)]),
          formatDuration(event.durationMs),
        ];
        this.line(this.loopDepth(event) + 1, style.dim(`◆ ${facts.join(" · ")}`));
        return;
      }
      case "llm-call-retry": {
        this.view(event.processId).llmRetries += 1;
        this.line(this.loopDepth(event) + 1, style.yellow(`↻ ${retryLine(event)}`));
        return;
      }
      case "tool-call-start": {
        const view = this.view(event.processId);
        view.toolCalls += 1;
        if (QUIET_TOOLS.has(event.toolName)) {
          this.quietCalls.add(event.toolCallId);
          return;
        }
        const parent =
          event.parentToolCallId === undefined || this.loopDepths.has(event.loopId)
            ? undefined
            : this.toolDepths.get(`${event.processId}:${event.parentToolCallId}`);
        if (parent !== undefined) this.loopDepths.set(event.loopId, parent);
        const depth = this.loopDepth(event) + 1;
        this.toolDepths.set(`${event.processId}:${event.toolCallId}`, depth);
        this.line(
          depth,
          `${style.yellow("⚙")} ${style.bold(event.toolName)} ${style.dim(oneLine(event.input, 120))}`,
        );
        this.openToolDepth.push({ processId: event.processId, depth });
        return;
      }
      case "tool-call-end": {
        const depth = this.loopDepth(event);
        if (this.quietCalls.delete(event.toolCallId)) {
          if (event.result.kind === "error") {
            this.line(depth + 1, style.red(`✗ ${event.toolName}: ${oneLine(event.result.content, 140)}`));
          }
          return;
        }
        this.openToolDepth.pop();
        this.toolDepths.delete(`${event.processId}:${event.toolCallId}`);
        const took = style.dim(`(${formatDuration(event.durationMs)})`);
        this.line(depth + 2, `${this.describeResult(event.result, "  ".repeat(depth + 3))} ${took}`);
        return;
      }
      case "embedding-call-end": {
        if (this.verbose) {
          this.line(
            this.view(event.processId).depth + 1,
            style.dim(
              `◆ embedding ${event.provider}/${event.modelId} · ${event.inputs} text(s) · ${event.tokens} tokens · ${formatDuration(event.durationMs)}`,
            ),
          );
        }
        return;
      }
      case "tools-changed": {
        if (event.added.length > 0) {
          this.line(this.loopDepth(event) + 2, style.dim(`+ tools: ${event.added.join(", ")}`));
        }
        return;
      }
      case "process-finished": {
        const view = this.view(event.processId);
        view.finished = {
          status: event.status,
          durationMs: event.durationMs,
          ...(event.reason === undefined ? {} : { reason: event.reason }),
        };
        if (view.depth > 0) {
          const reason = event.reason ? `: ${event.reason}` : "";
          const mark = event.status === "completed" ? style.green("✓") : style.red("✗");
          this.line(view.depth, `${mark} subagent ${event.status}${reason}`);
        }
        return;
      }
      default:
        return;
    }
  }

  private describeResult(result: ToolResult, continuation: string): string {
    const { style } = this.terminal;
    const text = this.verbose
      ? result.content.split("\n").join(`\n${continuation}`)
      : oneLine(result.content, 140);
    if (result.kind === "error") return style.red(`↳ error: ${text}`);
    return `${style.dim("↳")} ${text}`;
  }
}

/** Tools whose output-channel line (progress, message) is shown instead of the raw call. */
const QUIET_TOOLS: ReadonlySet<string> = new Set([ProgressTool.NAME, CommunicateTool.NAME]);

/** Options of {@link traceRenderer} and {@link renderTrace}. */
export interface TraceRendererOptions extends ProcessReporterOptions {
  /** Where each line goes. @default console.log */
  readonly write?: (line: string) => void;
  /** ANSI colours. @default false */
  readonly colour?: boolean;
}

/**
 * The `embabel-ts` command's live view of agent processes, for your own
 * program: register `listener` (and `outputChannel`) on the process options,
 * and each plan, action, LLM call (tokens, cost, duration) and tool call
 * (input, result, duration) is written as it happens, subagents indented
 * under the call that started them; `summary()` gives the closing line.
 *
 * @example
 * const trace = traceRenderer();
 * const options = ProcessOptions.DEFAULT.withListener(trace.listener).withOutputChannel(trace.outputChannel);
 * await platform.runAgent("StarNewsWriter", input, { processOptions: options });
 * console.log(trace.summary());
 */
export function traceRenderer(options: TraceRendererOptions = {}): ProcessReporter {
  const write = options.write ?? ((line: string) => console.log(line));
  return new ProcessReporter(lineTerminal(write, options.colour ?? false), options);
}

/**
 * The same tree for events already recorded (for example a trace kept from a
 * `ProcessOptions.withListener` listener), as text: one line an event worth
 * showing, then the summary line when the top-level process finished.
 */
export function renderTrace(events: Iterable<AgentProcessEvent>, options: TraceRendererOptions = {}): string {
  const lines: string[] = [];
  const renderer = traceRenderer({ ...options, write: (line) => lines.push(line) });
  for (const event of events) renderer.listener(event);
  const summary = renderer.summary();
  if (summary !== undefined) lines.push(summary);
  return lines.join("\n");
}

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : nouns}`;
}

/** `1,640`. */
function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

/** `$0.0012`, `$1.25`. */
export function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** The run's cost, or which models had no price (`undefined` when no LLM was called). */
function formatRunCost(totals: RunTotals): string | undefined {
  if (totals.llmCalls === 0) return undefined;
  const unpriced = totals.unpricedModels;
  if (unpriced.length === 0) return formatUsd(totals.costUsd);
  const note = `no price for ${unpriced.join(", ")}`;
  return totals.costUsd > 0 ? `${formatUsd(totals.costUsd)} + ${note}` : `cost unknown (${note})`;
}
