// Over 400 lines: one fold of trace records into a tree, a case per record type; the cases share the open-node bookkeeping.
import { type Trace, type TraceRecord, type TraceToolDefinition, UNREADABLE_RECORD } from "./trace-format.js";

/** Token counts of a call or a run. */
export interface TraceUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

interface NodeBase {
  /** Unique within the run. */
  readonly id: string;
  /** When it started (milliseconds since the epoch). */
  readonly startedAt: number;
  /** How long it took; `undefined` while it runs. */
  durationMs: number | undefined;
}

/** An agent process (the run's root, or a subagent under the tool call that started it). */
export interface ProcessNode extends NodeBase {
  readonly kind: "process";
  readonly agent: string | undefined;
  readonly parentId: string | undefined;
  status: string;
  reason: string | undefined;
  /** The process's result, when the trace recorded it (`process-result`). */
  result?: unknown;
  readonly children: TraceNode[];
}

/** A plan the planner formulated (`replan` when an earlier plan of the process differed). */
export interface PlanNode extends NodeBase {
  readonly kind: "plan";
  readonly goal: string;
  readonly actions: readonly string[];
  readonly cost: number;
  readonly worldState: readonly string[];
  readonly replan: boolean;
}

/** The status of a run whose trace has no process (its caller stopped before any worker started it). */
export const NOT_STARTED = "not started";

/** One action run, holding its LLM calls, output lines and blackboard additions. */
export interface ActionNode extends NodeBase {
  readonly kind: "action";
  readonly name: string;
  outcome: string | undefined;
  error: string | undefined;
  readonly children: TraceNode[];
}

/** One LLM call, holding the tool calls the model asked for in its reply. */
export interface LlmNode extends NodeBase {
  readonly kind: "llm";
  readonly loopId: string;
  readonly iteration: number;
  model: string | undefined;
  provider: string | undefined;
  usage: TraceUsage | undefined;
  costUsd: number | undefined;
  readonly toolNames: readonly string[];
  /** The loop's name when it has one (`playbook-tool-researcher` for an agentic tool's nested loop). */
  readonly interactionId?: string;
  /** The retries of the call after retryable failures (429, 5xx, a connection reset), in order. */
  retries: readonly LlmRetry[];
  readonly children: TraceNode[];
}

/** One retry of an LLM call, from its `llm-call-retry` record. */
export interface LlmRetry {
  /** The attempt made after the wait: 2 for the first retry. */
  readonly attempt: number;
  /** Attempts allowed in all. */
  readonly maxAttempts: number;
  /** The wait before the attempt. */
  readonly delayMs: number;
  /** What failed: the HTTP status (`429`), else the error's message, cut. */
  readonly reason: string;
}

/** One tool call, holding the processes (subagents) it started. */
export interface ToolNode extends NodeBase {
  readonly kind: "tool";
  readonly toolCallId: string;
  readonly name: string;
  readonly input: string;
  result: { readonly kind: string; readonly content: string } | undefined;
  /** Tools this call added to the list the model sees (unfolding, unlocking). */
  added: readonly string[];
  /** Tools it removed. */
  removed: readonly string[];
  readonly children: TraceNode[];
}

/** Anything else the process reported: progress, messages, log lines, blackboard additions, replan requests, goals, and event kinds this version does not know. */
export interface EventNode extends NodeBase {
  readonly kind: "event";
  /** The record's type (`output`, `object-added`, `goal-achieved`, …). */
  readonly type: string;
  /** One line describing it. */
  readonly summary: string;
  /** The record as written. */
  readonly record: TraceRecord;
}

/** A node of the run tree. */
export type TraceNode = ProcessNode | PlanNode | ActionNode | LlmNode | ToolNode | EventNode;

/** A run as the studio shows it: totals and the tree of what happened. */
export interface RunView {
  readonly runId: string;
  readonly meta: Readonly<Record<string, unknown>>;
  readonly startedAt: number;
  /** The root process's status (`running` until it finishes). */
  readonly status: string;
  readonly durationMs: number | undefined;
  readonly totals: {
    readonly llmCalls: number;
    /** LLM calls retried after retryable failures (each retry counts once). */
    readonly llmRetries: number;
    readonly toolCalls: number;
    readonly processes: number;
    readonly tokens: TraceUsage;
    readonly costUsd: number;
  };
  /** The top-level processes (usually one). */
  readonly roots: readonly ProcessNode[];
}

/** What one LLM call was given: the whole conversation and tool list, with what changed since the loop's previous call. */
export interface LlmCallDetail {
  readonly node: LlmNode;
  readonly messages: readonly unknown[];
  /** Messages from this index on are new since the previous call of the same loop. */
  readonly newFrom: number;
  /** Every tool offered, with its definition when the trace has it. */
  readonly tools: readonly (TraceToolDefinition & { readonly change: "added" | "same" })[];
  /** Tools offered to the previous call of the loop but not to this one. */
  readonly removedTools: readonly string[];
  /** The model's reply parts. */
  readonly response: readonly unknown[];
}

const ZERO: TraceUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

function addUsage(a: TraceUsage, b: TraceUsage | undefined): TraceUsage {
  if (!b) return a;
  return {
    inputTokens: a.inputTokens + (b.inputTokens ?? 0),
    outputTokens: a.outputTokens + (b.outputTokens ?? 0),
    totalTokens: a.totalTokens + (b.totalTokens ?? 0),
  };
}

const text = (value: unknown): string => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));

/** A one-line description of a record the tree has no node kind for. */
function summarize(record: TraceRecord): string {
  switch (record.type) {
    case "output":
      return `${text(record.channel)}: ${text(
        record.channel === "message"
          ? (record.message as { content?: unknown } | undefined)?.content
          : (record.message ?? record.content),
      )}`;
    case "object-added":
      return `+ ${text(record.typeName)} on the blackboard`;
    case "replan-requested":
      return `${text(record.action)} asked to replan: ${text(record.reason)}`;
    case "goal-achieved":
      return `goal achieved: ${text(record.goal)}`;
    case UNREADABLE_RECORD:
      return `unreadable: ${text(record.error)}`;
    default: {
      const { seq: _seq, type, processId: _process, timestamp: _timestamp, ...fields } = record;
      const body = JSON.stringify(fields);
      return `${type}${body === "{}" ? "" : ` ${body.length > 160 ? `${body.slice(0, 160)}…` : body}`}`;
    }
  }
}

/**
 * Builds the tree of a trace: processes → plans and actions → LLM calls →
 * tool calls → subagent processes, with timings, tokens and cost. Event
 * kinds it does not know become `event` nodes, so newer traces still show.
 */
export class TraceTree {
  private readonly processes = new Map<string, ProcessNode>();
  private readonly openActions = new Map<string, ActionNode>();
  private readonly llmCalls = new Map<string, LlmNode>();
  /** The latest LLM call of each loop. */
  private readonly lastLlmOfLoop = new Map<string, LlmNode>();
  /** Where each loop's LLM calls go: a loop started inside a running tool call of its process (an agentic tool's) nests under that call. */
  private readonly loopContainers = new Map<string, TraceNode[]>();
  /** The tool calls started and not yet ended, per process, innermost last. */
  private readonly openTools = new Map<string, ToolNode[]>();
  /** The latest call of each tool-call id per loop, and per process (subagents find their tool call by it). */
  private readonly tools = new Map<string, ToolNode>();
  private readonly lastToolOfLoop = new Map<string, ToolNode>();
  private readonly lastPlan = new Map<string, PlanNode>();
  private readonly roots: ProcessNode[] = [];
  private readonly llmStarts = new Map<string, TraceRecord>();
  private readonly llmEnds = new Map<string, TraceRecord>();
  private readonly definitions = new Map<string, TraceToolDefinition>();
  private llmCount = 0;
  private llmRetryCount = 0;
  private toolCount = 0;
  private usage = ZERO;
  private costUsd = 0;
  private lastTimestamp = 0;

  constructor(private readonly trace: Trace) {
    for (const record of trace.records) {
      try {
        this.add(record);
      } catch (error) {
        // A record with fields of the wrong shape: an error row, and the rest of the run still shows.
        this.add({
          seq: -Math.abs(Number(record.seq) || 0) - 0.5,
          type: UNREADABLE_RECORD,
          processId: typeof record.processId === "string" ? record.processId : "unknown",
          timestamp: typeof record.timestamp === "number" ? record.timestamp : this.lastTimestamp,
          error: `record ${String(Number(record.seq))} (${typeof record.type === "string" ? record.type : "?"}) cannot be shown: ${(error as Error).message}`,
        });
      }
    }
  }

  /** The run's totals and tree. */
  view(): RunView {
    const root = this.roots[0];
    const { header } = this.trace;
    return {
      runId: header.runId,
      meta: header.meta,
      startedAt: header.startedAt,
      status: root ? root.status : NOT_STARTED,
      durationMs: root?.durationMs,
      totals: {
        llmCalls: this.llmCount,
        llmRetries: this.llmRetryCount,
        toolCalls: this.toolCount,
        processes: this.processes.size,
        tokens: this.usage,
        costUsd: this.costUsd,
      },
      roots: this.roots,
    };
  }

  /** What the LLM call `id` (a node id from the tree) was given, or `undefined` when there is no such call. */
  llmCall(id: string): LlmCallDetail | undefined {
    const node = this.llmCalls.get(id);
    const start = this.llmStarts.get(id);
    if (!node || !start) return undefined;
    const messages: unknown[] = [];
    let previous: LlmNode | undefined;
    for (let iteration = 1; iteration <= node.iteration; iteration += 1) {
      const key = `${node.loopId}:${iteration}`;
      const record = this.llmStarts.get(key);
      if (!record) continue;
      if (iteration < node.iteration) previous = this.llmCalls.get(key);
      const offset = typeof record.messageOffset === "number" ? record.messageOffset : messages.length;
      messages.length = Math.min(messages.length, offset);
      messages.push(...((record.messages as unknown[] | undefined) ?? []));
    }
    const offered = new Set(previous?.toolNames ?? node.toolNames);
    return {
      node,
      messages,
      newFrom: previous ? Number(start.messageOffset ?? 0) : 0,
      tools: node.toolNames.map((name) => ({
        ...(this.definitions.get(name) ?? { name }),
        change: offered.has(name) ? ("same" as const) : ("added" as const),
      })),
      removedTools: previous ? previous.toolNames.filter((name) => !node.toolNames.includes(name)) : [],
      response: (this.llmEnds.get(id)?.response as unknown[] | undefined) ?? [],
    };
  }

  private process(record: TraceRecord): ProcessNode {
    let node = this.processes.get(record.processId);
    if (!node) {
      // A record of a process whose start was not recorded (recording began mid-run).
      node = this.startProcess({ ...record, type: "process-started" });
    }
    return node;
  }

  private startProcess(record: TraceRecord): ProcessNode {
    const node: ProcessNode = {
      kind: "process",
      id: record.processId,
      startedAt: record.timestamp,
      durationMs: undefined,
      agent: typeof record.agent === "string" ? record.agent : undefined,
      parentId: typeof record.parentId === "string" ? record.parentId : undefined,
      status: "running",
      reason: undefined,
      children: [],
    };
    this.processes.set(record.processId, node);
    const parentTool =
      typeof record.parentToolCallId === "string"
        ? this.tools.get(`${node.parentId}:${record.parentToolCallId}`)
        : undefined;
    const parent = node.parentId ? this.processes.get(node.parentId) : undefined;
    if (parentTool) parentTool.children.push(node);
    else if (parent) this.containerOf(parent.id).push(node);
    else this.roots.push(node);
    return node;
  }

  /** Where a process's next node goes: its open action, else the process itself. */
  /** The container of a loop's LLM calls, decided at its first call: under the innermost running tool call of its process, else the process's. */
  private loopContainer(loopId: string, processId: string): TraceNode[] {
    let container = this.loopContainers.get(loopId);
    if (!container) {
      container = this.openTools.get(processId)?.at(-1)?.children ?? this.containerOf(processId);
      this.loopContainers.set(loopId, container);
    }
    return container;
  }

  private containerOf(processId: string): TraceNode[] {
    return (this.openActions.get(processId) ?? this.processes.get(processId))?.children ?? this.roots;
  }

  private add(record: TraceRecord): void {
    this.lastTimestamp = Math.max(this.lastTimestamp, record.timestamp);
    switch (record.type) {
      case "process-started":
        if (!this.processes.has(record.processId)) this.startProcess(record);
        return;
      case "process-finished": {
        const node = this.process(record);
        node.status = text(record.status);
        node.reason = typeof record.reason === "string" ? record.reason : undefined;
        node.durationMs = Number(record.durationMs ?? record.timestamp - node.startedAt);
        this.openActions.delete(record.processId);
        return;
      }
      case "process-result": {
        const node = this.process(record);
        node.result = record.result;
        if (typeof record.status === "string") node.status = record.status;
        return;
      }
      case "plan-formulated": {
        const process = this.process(record);
        const actions = (record.actions as string[] | undefined) ?? [];
        const previous = this.lastPlan.get(record.processId);
        const node: PlanNode = {
          kind: "plan",
          id: `plan-${record.seq}`,
          startedAt: record.timestamp,
          durationMs: 0,
          goal: text(record.goal),
          actions,
          cost: Number(record.cost ?? 0),
          worldState: (record.worldState as string[] | undefined) ?? [],
          replan:
            previous !== undefined && previous.actions.slice(1).join("\u0000") !== actions.join("\u0000"),
        };
        this.lastPlan.set(record.processId, node);
        process.children.push(node);
        return;
      }
      case "action-start": {
        const process = this.process(record);
        const node: ActionNode = {
          kind: "action",
          id: `action-${record.seq}`,
          startedAt: record.timestamp,
          durationMs: undefined,
          name: text(record.action),
          outcome: undefined,
          error: undefined,
          children: [],
        };
        process.children.push(node);
        this.openActions.set(record.processId, node);
        return;
      }
      case "action-end": {
        const node = this.openActions.get(record.processId);
        if (!node) return;
        node.durationMs = Number(record.durationMs ?? record.timestamp - node.startedAt);
        node.outcome = text(record.outcome);
        const error = record.error as { message?: unknown } | undefined;
        if (error !== undefined) node.error = typeof error === "object" ? text(error?.message) : text(error);
        this.openActions.delete(record.processId);
        return;
      }
      case "llm-call-start": {
        this.process(record);
        const loopId = text(record.loopId);
        const iteration = Number(record.iteration ?? 0);
        const id = `${loopId}:${iteration}`;
        for (const definition of (record.toolDefinitions as TraceToolDefinition[] | undefined) ?? []) {
          this.definitions.set(definition.name, definition);
        }
        const node: LlmNode = {
          kind: "llm",
          id,
          startedAt: record.timestamp,
          durationMs: undefined,
          loopId,
          iteration,
          model: undefined,
          provider: undefined,
          usage: undefined,
          costUsd: undefined,
          toolNames: (record.toolNames as string[] | undefined) ?? [],
          retries: [],
          children: [],
        };
        if (typeof record.interactionId === "string")
          Object.assign(node, { interactionId: record.interactionId });
        this.llmCount += 1;
        this.llmCalls.set(id, node);
        this.llmStarts.set(id, record);
        this.lastLlmOfLoop.set(loopId, node);
        this.loopContainer(loopId, record.processId).push(node);
        return;
      }
      case "llm-call-end": {
        const id = `${text(record.loopId)}:${Number(record.iteration ?? 0)}`;
        const node = this.llmCalls.get(id);
        if (!node) return;
        this.llmEnds.set(id, record);
        node.durationMs = Number(record.durationMs ?? 0);
        node.model = typeof record.modelId === "string" ? record.modelId : undefined;
        node.provider = typeof record.provider === "string" ? record.provider : undefined;
        node.usage = record.usage as TraceUsage | undefined;
        node.costUsd = typeof record.costUsd === "number" ? record.costUsd : undefined;
        this.usage = addUsage(this.usage, node.usage);
        this.costUsd += node.costUsd ?? 0;
        return;
      }
      case "llm-call-retry": {
        const node = this.llmCalls.get(`${text(record.loopId)}:${Number(record.iteration ?? 0)}`);
        if (!node) return;
        this.llmRetryCount += 1;
        node.retries = [
          ...node.retries,
          {
            attempt: Number(record.attempt ?? 0),
            maxAttempts: Number(record.maxAttempts ?? 0),
            delayMs: Number(record.delayMs ?? 0),
            reason: text(record.reason),
          },
        ];
        return;
      }
      case "tool-call-start": {
        const loopId = text(record.loopId);
        const toolCallId = text(record.toolCallId);
        const node: ToolNode = {
          kind: "tool",
          id: `tool-${record.seq}`,
          startedAt: record.timestamp,
          durationMs: undefined,
          toolCallId,
          name: text(record.toolName),
          input: text(record.input),
          result: undefined,
          added: [],
          removed: [],
          children: [],
        };
        this.toolCount += 1;
        // A call made inside another (a code-mode program's inner call) nests under it.
        const parent =
          typeof record.parentToolCallId === "string"
            ? this.tools.get(`${record.processId}:${record.parentToolCallId}`)
            : undefined;
        this.tools.set(`${record.processId}:${toolCallId}`, node);
        this.tools.set(`${loopId}:${toolCallId}`, node);
        this.lastToolOfLoop.set(loopId, node);
        (
          parent?.children ??
          this.lastLlmOfLoop.get(loopId)?.children ??
          this.containerOf(record.processId)
        ).push(node);
        const open = this.openTools.get(record.processId);
        if (open) open.push(node);
        else this.openTools.set(record.processId, [node]);
        return;
      }
      case "tool-call-end": {
        const node = this.tools.get(`${text(record.loopId)}:${text(record.toolCallId)}`);
        if (!node) return;
        const open = this.openTools.get(record.processId);
        const at = open ? open.lastIndexOf(node) : -1;
        if (open && at >= 0) open.splice(at, 1);
        node.durationMs = Number(record.durationMs ?? 0);
        node.result = record.result as ToolNode["result"];
        return;
      }
      case "tools-changed": {
        const node = this.lastToolOfLoop.get(text(record.loopId));
        if (!node) return;
        node.added = [...node.added, ...((record.added as string[] | undefined) ?? [])];
        node.removed = [...node.removed, ...((record.removed as string[] | undefined) ?? [])];
        return;
      }
      default: {
        this.process(record);
        const node: EventNode = {
          kind: "event",
          id: `event-${record.seq}`,
          startedAt: record.timestamp,
          durationMs: 0,
          type: record.type,
          summary: summarize(record),
          record,
        };
        this.containerOf(record.processId).push(node);
      }
    }
  }
}
