import { CommunicateTool } from "../builtins/communicate-tool.js";
import { ProgressTool } from "../builtins/progress-tool.js";
import type { OutputChannel, OutputChannelEvent } from "../platform/output-channel.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import type { ToolResult } from "../tool/tool-result.js";
import { indent, oneLine, type Terminal } from "./terminal.js";

/** Options of {@link ProcessReporter}. */
export interface ProcessReporterOptions {
  /** Print LLM calls, full tool results and every replan. @default false */
  readonly verbose?: boolean;
}

interface ProcessView {
  readonly depth: number;
  /** The remaining actions of the last plan printed. */
  expected: readonly string[];
  llmCalls: number;
  toolCalls: number;
  tokens: number;
}

/** Totals over a run and every child process it started. */
export interface RunTotals {
  /** LLM calls made. */
  readonly llmCalls: number;
  /** Tool calls made. */
  readonly toolCalls: number;
  /** Input and output tokens reported by the models. */
  readonly tokens: number;
  /** Processes started: the run itself, then one per subagent run. */
  readonly processes: number;
}

/**
 * Prints what agent processes do, as it happens: each new plan, each action
 * with its duration, each tool call with its arguments and result, and child
 * processes (subagents) indented under the tool call that started them.
 * Register {@link ProcessReporter.listener} as a process listener.
 */
export class ProcessReporter {
  private readonly processes = new Map<string, ProcessView>();
  private readonly verbose: boolean;
  /** The depth of the innermost running tool call, for processes started without a parent id. */
  private openToolDepth: number[] = [];
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
      const depth = this.view(event.processId).depth + 1;
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
    let toolCalls = 0;
    let tokens = 0;
    for (const view of this.processes.values()) {
      llmCalls += view.llmCalls;
      toolCalls += view.toolCalls;
      tokens += view.tokens;
    }
    return { llmCalls, toolCalls, tokens, processes: this.processes.size };
  }

  private view(processId: string): ProcessView {
    let view = this.processes.get(processId);
    if (!view) {
      view = { depth: this.currentToolDepth(), expected: [], llmCalls: 0, toolCalls: 0, tokens: 0 };
      this.processes.set(processId, view);
    }
    return view;
  }

  private currentToolDepth(): number {
    const open = this.openToolDepth[this.openToolDepth.length - 1];
    return open === undefined ? 0 : open + 2;
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
        const took = style.dim(`(${formatDuration(event.durationMs)})`);
        if (event.outcome === "succeeded")
          this.line(view.depth, `${style.green("✓")} ${event.action} ${took}`);
        else if (event.outcome === "replan")
          this.line(view.depth, `${style.yellow("↺")} ${event.action} ${took}`);
        else {
          const reason = event.error instanceof Error ? `: ${event.error.message}` : "";
          this.line(view.depth, `${style.red("✗")} ${event.action} ${event.outcome}${reason} ${took}`);
        }
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
        if (this.verbose) {
          this.line(
            view.depth + 1,
            style.dim(
              `◆ LLM ${event.provider}/${event.modelId} · ${event.usage.totalTokens} tokens · ${formatDuration(event.durationMs)}`,
            ),
          );
        }
        return;
      }
      case "tool-call-start": {
        const view = this.view(event.processId);
        view.toolCalls += 1;
        if (QUIET_TOOLS.has(event.toolName)) {
          this.quietCalls.add(event.toolCallId);
          return;
        }
        this.line(
          view.depth + 1,
          `${style.yellow("⚙")} ${style.bold(event.toolName)} ${style.dim(oneLine(event.input, 120))}`,
        );
        this.openToolDepth.push(view.depth + 1);
        return;
      }
      case "tool-call-end": {
        const view = this.view(event.processId);
        if (this.quietCalls.delete(event.toolCallId)) {
          if (event.result.kind === "error") {
            this.line(
              view.depth + 1,
              style.red(`✗ ${event.toolName}: ${oneLine(event.result.content, 140)}`),
            );
          }
          return;
        }
        this.openToolDepth.pop();
        this.line(view.depth + 2, this.describeResult(event.result, "  ".repeat(view.depth + 3)));
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
          this.line(this.view(event.processId).depth + 2, style.dim(`+ tools: ${event.added.join(", ")}`));
        }
        return;
      }
      case "process-finished": {
        const view = this.view(event.processId);
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

/** `850ms`, `1.2s`, `2m 5s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m ${Math.round((ms % 60_000) / 1000)}s`;
}
