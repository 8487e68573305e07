import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { AwaitingResponse } from "../errors/awaiting-response.js";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { flatUuid } from "../loop/flat-uuid.js";
import type { LoopWaits } from "../loop/loop-waits.js";
import type { LlmUsage, ToolLoopEvent } from "../loop/tool-loop.js";
import type { LlmInteractionCall, LlmInteractionHost } from "../prompt/llm-interaction-host.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import type { ApprovalAuthority } from "../tool/approval-authority.js";
import { Logger } from "../tool/logger.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import { typeNameOf } from "../tool/type-token.js";
import type { Agent, AgentGoal } from "./agent.js";
import type { AgentPlatform } from "./agent-platform.js";
import { AgentProcessStatus } from "./agent-process-status.js";
import type { AwaitableRequest } from "./awaitable.js";
import { Blackboard } from "./blackboard.js";
import { describeEvent } from "./describe-event.js";
import type { ProcessCheckpoint } from "./process-checkpoint.js";
import type { ActionOutcome, AgentProcessEvent, ProcessLifecycleEvent } from "./process-event.js";
import { ProcessOptions } from "./process-options.js";
import { recordWaitSpan } from "./process-telemetry.js";
import { type AcceptedResponse, ProcessWaits } from "./process-waits.js";
import { withPromptReporting } from "./prompt-reporting-model.js";

/** One action run, in the process's history. */
export interface ActionInvocation {
  /** The action's name. */
  readonly actionName: string;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  /** How long the action ran. */
  readonly durationMs: number;
  /** How it ended: `succeeded`, `failed`, `replan`, `terminated` or `killed`. */
  readonly outcome: ActionOutcome;
}

/** A model the process called. */
export interface ModelUsed {
  /** The platform's name for the model. */
  readonly name: string;
  /** The AI SDK provider id (`openai.chat`, …). */
  readonly provider: string;
  /** The provider's model id (`gpt-4.1`, …). */
  readonly modelId: string;
  /** Whether it is a language model or an embedding model. */
  readonly kind: "llm" | "embedding";
}

/** One finished embedding call, as recorded on a process. */
export interface EmbeddingCall {
  /** The platform's name for the embedding model. */
  readonly modelName: string;
  /** The AI SDK provider id (`openai.embedding`, …). */
  readonly provider: string;
  /** The provider's model id (`text-embedding-3-small`, …). */
  readonly modelId: string;
  /** How many texts were embedded. */
  readonly inputs: number;
  /** Input tokens the provider reported (0 when it reported none). */
  readonly tokens: number;
  /** Cost in US dollars; `undefined` when the model's price is unknown. */
  readonly costUsd: number | undefined;
  readonly durationMs: number;
}

/** Calls of one tool in the process. */
export interface ToolStats {
  /** How many times the tool was called. */
  readonly calls: number;
  /** Calls whose result was an error. */
  readonly failures: number;
  /** The sum of the calls' durations. */
  readonly totalDurationMs: number;
}

interface ProcessState {
  status: AgentProcessStatus;
  statusReason: string | undefined;
  failure: unknown;
  result: unknown;
  goal: AgentGoal | undefined;
  endedAt: number | undefined;
  terminateRequest: string | undefined;
  readonly history: ActionInvocation[];
  usage: LlmUsage;
  costUsd: number;
  llmInvocations: number;
  llmRetries: number;
  embeddingInvocations: number;
  /** Every model used, by key; created when a second model is used (most processes call one: see `lastModel`). */
  models: Map<string, ModelUsed> | undefined;
  /** The model of the latest call (the only one while `models` is undefined), so repeated calls of one model skip the map. */
  lastModel: ModelUsed | undefined;
  /** Created on the first tool call; the stats are updated in place and copied when handed out. */
  tools: Map<string, MutableToolStats> | undefined;
  /** The action now running, for `object-added` events. */
  action: string | undefined;
  /** Requests, answers and the interrupted action's journal; created on first use, only on a root process. */
  waits: ProcessWaits | undefined;
}

/** How to create a process (used by the platform). */
export interface AgentProcessInit {
  /** The agent run; none for `runInProcess`. @default undefined */
  readonly agent?: Agent;
  /** @default ProcessOptions.DEFAULT */
  readonly processOptions?: ProcessOptions;
  /** The id of the process that started this one (taken from `parent` when given). */
  readonly parentId?: string;
  /** The process that started this one: its token and cost budgets also bound this one's LLM calls, which count toward its usage. */
  readonly parent?: AgentProcess;
  /** Aborting it kills the process. */
  readonly signal?: AbortSignal;
  /** The platform running the process (subagents resolve and run agents on it). */
  readonly platform?: AgentPlatform;
  /** The process id. @default a random UUID */
  readonly id?: string;
  /** Continue from this state (its id, blackboard, history, usage, status) instead of starting empty. */
  readonly checkpoint?: ProcessCheckpoint;
}

/** The platform's handle on a process it runs: the process, and the means to change its state. */
export interface ProcessControl {
  setGoal(goal: AgentGoal | undefined): void;
  /** The action now running (`undefined` between actions): objects added meanwhile are its. */
  setAction(action: string | undefined): void;
  recordAction(invocation: ActionInvocation): void;
  finish(
    status: AgentProcessStatus,
    reason?: string,
    details?: { failure?: unknown; result?: unknown },
  ): void;
  emit(event: ProcessLifecycleEvent): void;
  /** Whether anything sees the process's events (listeners, or debug logging): when false, `emit` does nothing, so callers may skip building the event. */
  readonly observed: boolean;
  /** The pending graceful termination request, if any. */
  readonly terminateRequest: string | undefined;
  /** An action of the process starts (a root process's journal is read from its first slot again). */
  actionStarted(): void;
  /** An action ended without waiting (a root process's journal and answers are dropped). */
  actionEnded(): void;
  /** Puts the process in `waiting` with `signal`'s requests (a child process rethrows it: its root waits). */
  wait(signal: AwaitingResponse): void;
  /** Back to `running` from `waiting`; open requests past their deadline are denied first. */
  resume(): void;
  /** Accepts an answer (an `InvalidResponseError` when it is bad) and emits `response-received`. */
  answer(requestId: string, response: unknown, respondent: string): AcceptedResponse;
  /** Denies the open requests past their deadline ("timed out"), emitting `response-received` for each. */
  expire(now: number): void;
}

const processBrand = Symbol.for("embabel-ts.agent-process");

/**
 * One run of an agent (or of a function, with `platform.runInProcess`): its
 * id, status, goal, blackboard, history, LLM usage and cost, tool statistics
 * and result. Inside the run, `AgentProcess.current()` returns it; prompt
 * runners used there merge its tool-call context, report their calls to it
 * and stop when its budget is spent.
 */
export class AgentProcess implements AmbientProcess, LlmInteractionHost {
  readonly [processBrand] = true;
  readonly id: string;
  /** The agent being run; `undefined` for `runInProcess`. */
  readonly agent: Agent | undefined;
  readonly parentId: string | undefined;
  /** The platform running this process; `undefined` for a process launched without one. */
  readonly platform: AgentPlatform | undefined;
  readonly processOptions: ProcessOptions;
  readonly blackboard: Blackboard;
  /** Milliseconds since the epoch when the process started (a number: a `Date` per process costs more to keep). */
  private readonly startedAtMs: number;
  private readonly state: ProcessState;
  private readonly controller = new AbortController();
  private readonly parentProcess: AgentProcess | undefined;
  /** Whether listeners or debug logging see the events (fixed: the options are immutable). */
  private readonly observed: boolean;

  private constructor(init: AgentProcessInit) {
    const checkpoint = init.checkpoint;
    this.id = checkpoint?.id ?? init.id ?? flatUuid();
    this.startedAtMs = checkpoint?.startedAt ?? Date.now();
    this.agent = init.agent;
    this.parentProcess = init.parent;
    this.parentId = init.parent?.id ?? init.parentId ?? checkpoint?.parentId;
    this.platform = init.platform;
    this.processOptions = init.processOptions ?? ProcessOptions.DEFAULT;
    this.observed = this.processOptions.listeners.length > 0 || this.processOptions.verbosity.debug;
    this.blackboard = checkpoint
      ? Blackboard.fromSnapshot(checkpoint.blackboard)
      : (this.processOptions.blackboard ?? new Blackboard());
    this.state = {
      status: "running",
      statusReason: undefined,
      failure: undefined,
      result: undefined,
      goal: undefined,
      endedAt: undefined,
      terminateRequest: undefined,
      history: [],
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      costUsd: 0,
      llmInvocations: 0,
      llmRetries: 0,
      embeddingInvocations: 0,
      models: undefined,
      lastModel: undefined,
      tools: undefined,
      action: undefined,
      waits: undefined,
    };
    if (checkpoint) this.state = restoredState(checkpoint, init.agent);
    // Every object added while something observes the process is an event (never built otherwise).
    if (this.observed) this.blackboard.observeAdditions((value) => this.objectAdded(value));
    const external = init.signal;
    if (external?.aborted) this.controller.abort(external.reason);
    else external?.addEventListener("abort", () => this.controller.abort(external.reason), { once: true });
  }

  /** The process the current async call chain runs in, or `undefined` outside any process. */
  static current(): AgentProcess | undefined {
    const process = AmbientProcess.current();
    return AgentProcess.isAgentProcess(process) ? process : undefined;
  }

  /** Whether `value` is an {@link AgentProcess} (across package copies). */
  static isAgentProcess(value: unknown): value is AgentProcess {
    return (
      typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[processBrand] === true
    );
  }

  /** Creates a process and the control the platform drives it with (platform-internal). */
  static launch(init: AgentProcessInit = {}): { process: AgentProcess; control: ProcessControl } {
    const process = new AgentProcess(init);
    return { process, control: process.control() };
  }

  /**
   * A process object showing `checkpoint` (status, result, blackboard,
   * history, usage): what a runner that ran the process elsewhere returns.
   */
  static fromCheckpoint(
    checkpoint: ProcessCheckpoint,
    init: Omit<AgentProcessInit, "checkpoint"> = {},
  ): AgentProcess {
    return new AgentProcess({ ...init, checkpoint });
  }

  /** Runs `fn` with this process as the current one. */
  runWithin<T>(fn: () => T): T {
    return AmbientProcess.run(this, fn);
  }

  /** The logger of the platform running this process (the default logger without one). */
  get logger(): Logger {
    return this.platform?.logger ?? Logger.default;
  }

  get status(): AgentProcessStatus {
    return this.state.status;
  }
  /** Why the process ended as it did (budget message, stuck explanation, error message). */
  get statusReason(): string | undefined {
    return this.state.statusReason;
  }
  /** The error that failed the process, kept as thrown. */
  get failure(): unknown {
    return this.state.failure;
  }
  /** The process's result: the goal's output, the last object added, or the function's return value. */
  get result(): unknown {
    return this.state.result;
  }
  /** The goal of the latest plan. */
  get goal(): AgentGoal | undefined {
    return this.state.goal;
  }
  /** Every action run, in order. */
  get history(): readonly ActionInvocation[] {
    return [...this.state.history];
  }
  /** When the process started (a new `Date` at each read). */
  get startedAt(): Date {
    return new Date(this.startedAtMs);
  }
  /** When the process ended, or `undefined` while it runs. */
  get endedAt(): Date | undefined {
    return this.state.endedAt === undefined ? undefined : new Date(this.state.endedAt);
  }
  /** Milliseconds from start to end (or to now while running). */
  get runningTimeMs(): number {
    return (this.state.endedAt ?? Date.now()) - this.startedAtMs;
  }
  /** Whether the process has ended. */
  get finished(): boolean {
    return AgentProcessStatus.isFinished(this.state.status);
  }
  /** Tokens used by every LLM and embedding call of the process and of its child processes (embedding tokens count as input). */
  get usage(): LlmUsage {
    return this.state.usage;
  }
  /** Cost in US dollars of every LLM and embedding call with a known price, child processes included. */
  get costUsd(): number {
    return this.state.costUsd;
  }
  /** How many LLM calls the process and its child processes made. */
  get llmInvocations(): number {
    return this.state.llmInvocations;
  }
  /** How many LLM calls of the process and its child processes were retried after a retryable failure (429, 5xx, a connection reset); each retry counts once. */
  get llmRetries(): number {
    return this.state.llmRetries;
  }
  /** How many embedding calls the process and its child processes made. */
  get embeddingInvocations(): number {
    return this.state.embeddingInvocations;
  }
  /** The models called (language and embedding), in order of first use. */
  get modelsUsed(): readonly ModelUsed[] {
    return modelsOf(this.state);
  }
  /** Calls per tool name. */
  get toolStats(): ReadonlyMap<string, ToolStats> {
    return new Map(copiedStats(this.state.tools));
  }
  /** The open requests of a `waiting` process (approvals, confirmations, forms), oldest first; answer one with `platform.respond`. */
  get awaiting(): readonly AwaitableRequest[] {
    return this.state.waits?.requests ?? [];
  }

  /** @see LlmInteractionHost.loopWaits: the root process's waits (a subagent's waits are its root's). */
  get loopWaits(): LoopWaits {
    return this.waitsForAwaitables();
  }

  /** @see AmbientProcess.approvals: the root process's waits answer approvals (asking makes the process wait). */
  get approvals(): ApprovalAuthority {
    return this.waitsForAwaitables();
  }

  /** The waits `WaitFor` records in: the root process's (internal). */
  waitsForAwaitables(): ProcessWaits {
    if (this.parentProcess) return this.parentProcess.waitsForAwaitables();
    this.state.waits ??= new ProcessWaits();
    return this.state.waits;
  }

  /** Aborted when the process is killed. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  /** Adds `value` to this process's blackboard (the latest object of its type from now on), as the chapter's `agentProcess.addObject(customer)`. */
  addObject(value: unknown): this {
    this.blackboard.add(value);
    return this;
  }

  /** @see LlmInteractionHost.maxRetries (from `ProcessOptions`) */
  get maxRetries(): number | undefined {
    return this.processOptions.maxRetries;
  }

  /** The process-level tool-call context (from `ProcessOptions`). */
  get toolCallContext(): ToolCallContext {
    return this.processOptions.toolCallContext;
  }

  /**
   * Options for a child process (what a `Subagent` runs with): a `spawn()` of
   * this blackboard, and this process's verbosity, listeners, output channel,
   * tool-call context and context id; the budget starts afresh (a child run
   * with `parent` still stops when this process's token or cost budget is spent).
   */
  childProcessOptions(): ProcessOptions {
    return new ProcessOptions({
      contextId: this.processOptions.contextId,
      toolCallContext: this.processOptions.toolCallContext,
      verbosity: this.processOptions.verbosity,
      listeners: this.processOptions.listeners,
      outputChannel: this.processOptions.outputChannel,
      blackboard: this.blackboard.spawn(),
      maxRetries: this.processOptions.maxRetries,
    });
  }

  /** Its state now: status, blackboard, history, usage and cost (values are the live objects, not copies). */
  checkpoint(): ProcessCheckpoint {
    const state = this.state;
    return {
      id: this.id,
      agentName: this.agent?.name,
      parentId: this.parentId,
      startedAt: this.startedAtMs,
      endedAt: state.endedAt,
      status: state.status,
      statusReason: state.statusReason,
      failure: state.failure,
      result: state.result,
      goalName: state.goal?.name,
      terminateRequest: state.terminateRequest,
      history: [...state.history],
      usage: state.usage,
      costUsd: state.costUsd,
      llmInvocations: state.llmInvocations,
      llmRetries: state.llmRetries,
      embeddingInvocations: state.embeddingInvocations,
      modelsUsed: modelsOf(state),
      toolStats: copiedStats(state.tools),
      blackboard: this.blackboard.snapshot(),
      ...(state.waits && !state.waits.empty ? { waiting: state.waits.state() } : {}),
    };
  }

  /** Kills the process from outside: aborts its LLM and tool calls; it ends `killed`. */
  kill(reason = "Killed"): void {
    if (!this.finished) this.controller.abort(new Error(reason));
  }

  /** Asks the process to end `terminated` before its next step (the current action completes). */
  terminateAgent(reason: string): void {
    this.state.terminateRequest ??= reason;
  }

  /** Throws a {@link BudgetExceededError} when the token or cost budget of this process or of an ancestor is spent. */
  checkLlmBudget(): void {
    const { budget } = this.processOptions;
    if (this.state.usage.totalTokens >= budget.tokens) {
      throw new BudgetExceededError("tokens", budget.tokens, this.state.usage.totalTokens);
    }
    if (this.state.costUsd > budget.cost)
      throw new BudgetExceededError("cost", budget.cost, this.state.costUsd);
    this.parentProcess?.checkLlmBudget();
  }

  /** Throws a {@link BudgetExceededError} when any budget (actions, tokens, cost) is spent. */
  checkBudget(): void {
    const { budget } = this.processOptions;
    if (this.state.history.length >= budget.actions) {
      throw new BudgetExceededError("actions", budget.actions, this.state.history.length);
    }
    this.checkLlmBudget();
  }

  /** @see LlmInteractionHost.loopEventTypes: every type while listeners or debug logging see them, else only what the process counts. */
  get loopEventTypes(): ReadonlySet<ToolLoopEvent["type"]> | undefined {
    return this.observed ? undefined : COUNTED_LOOP_EVENTS;
  }

  /** @see LlmInteractionHost.onLoopEvent */
  onLoopEvent(event: ToolLoopEvent): void {
    if (event.type === "tool-call-end") {
      this.state.tools ??= new Map();
      let stats = this.state.tools.get(event.toolName);
      if (!stats) {
        stats = { calls: 0, failures: 0, totalDurationMs: 0 };
        this.state.tools.set(event.toolName, stats);
      }
      stats.calls++;
      if (event.result.kind === "error") stats.failures++;
      stats.totalDurationMs += event.durationMs;
    } else if (event.type === "llm-call-retry") this.addLlmRetry();
    this.dispatch(event);
  }

  /** @see LlmInteractionHost.observeModel: with `verbosity.showPrompts` / `showLlmResponses`, prompts and replies go to the output channel as `logging` events. */
  observeModel(model: LanguageModelV3): LanguageModelV3 {
    const { verbosity, outputChannel } = this.processOptions;
    return withPromptReporting(model, { id: this.id, verbosity, outputChannel });
  }

  /** @see LlmInteractionHost.beforeLlmCall */
  beforeLlmCall(_state: { readonly iteration: number; readonly usage: LlmUsage }): void {
    this.signal.throwIfAborted();
    this.checkLlmBudget();
  }

  /** @see LlmInteractionHost.recordLlmCall (a child's calls also count in its ancestors) */
  recordLlmCall(call: LlmInteractionCall): void {
    this.parentProcess?.recordLlmCall(call);
    const usage = this.state.usage;
    this.state.usage = {
      inputTokens: usage.inputTokens + call.usage.inputTokens,
      outputTokens: usage.outputTokens + call.usage.outputTokens,
      totalTokens: usage.totalTokens + call.usage.totalTokens,
    };
    this.state.costUsd += call.costUsd ?? 0;
    this.state.llmInvocations++;
    this.noteModel("llm", call.modelName, call.provider, call.modelId);
  }

  private addLlmRetry(): void {
    this.parentProcess?.addLlmRetry();
    this.state.llmRetries++;
  }

  /** Records one finished embedding call: its tokens (as input), cost and model; a child's calls also count in its ancestors. Emits `embedding-call-end`. */
  recordEmbeddingCall(call: EmbeddingCall): void {
    this.addEmbeddingCall(call);
    this.dispatch({
      type: "embedding-call-end",
      model: call.modelName,
      provider: call.provider,
      modelId: call.modelId,
      inputs: call.inputs,
      tokens: call.tokens,
      durationMs: call.durationMs,
    });
  }

  private addEmbeddingCall(call: EmbeddingCall): void {
    this.parentProcess?.addEmbeddingCall(call);
    const usage = this.state.usage;
    this.state.usage = {
      inputTokens: usage.inputTokens + call.tokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.totalTokens + call.tokens,
    };
    this.state.costUsd += call.costUsd ?? 0;
    this.state.embeddingInvocations++;
    this.noteModel("embedding", call.modelName, call.provider, call.modelId);
  }

  private noteModel(kind: ModelUsed["kind"], name: string, provider: string, modelId: string): void {
    const state = this.state;
    const last = state.lastModel;
    if (last !== undefined && last.kind === kind && last.modelId === modelId && last.provider === provider)
      return;
    if (last === undefined && state.models === undefined) {
      state.lastModel = { name, provider, modelId, kind };
      return;
    }
    if (state.models === undefined) {
      // A second model: from now on every model is kept in the map, in order of first use.
      state.models = new Map();
      if (last) state.models.set(modelKey(last.kind, last.provider, last.modelId), last);
    }
    const key = modelKey(kind, provider, modelId);
    let model = state.models.get(key);
    if (!model) {
      model = { name, provider, modelId, kind };
      state.models.set(key, model);
    }
    state.lastModel = model;
  }

  private objectAdded(value: unknown): void {
    const action = this.state.action;
    this.dispatch(
      action === undefined
        ? { type: "object-added", typeName: typeNameOf(value), value }
        : { type: "object-added", action, typeName: typeNameOf(value), value },
    );
  }

  private dispatch(event: ProcessLifecycleEvent | ToolLoopEvent): void {
    if (!this.observed) return;
    if (this.processOptions.verbosity.debug) this.log(describeEvent(event));
    if (this.processOptions.listeners.length === 0) return;
    const stamped = { ...event, processId: this.id, timestamp: Date.now() } as AgentProcessEvent;
    for (const listener of this.processOptions.listeners) {
      try {
        listener(stamped);
      } catch {
        // A listener's failure must not change the run.
      }
    }
  }

  /** Sends a debug line to the output channel; a failing channel never changes the run. */
  private log(message: string): void {
    try {
      const sent = this.processOptions.outputChannel.send({
        type: "logging",
        processId: this.id,
        level: "debug",
        message,
      });
      if (sent) sent.catch(() => {});
    } catch {
      // Reporting must not end the run.
    }
  }

  private control(): ProcessControl {
    return new DefaultProcessControl(
      this.state,
      this.observed,
      (event) => this.dispatch(event),
      this.parentProcess !== undefined,
      this.id,
    );
  }
}

/** The loop events a process counts (tool stats) even when nothing observes it; LLM calls come through `recordLlmCall`. */
const COUNTED_LOOP_EVENTS: ReadonlySet<ToolLoopEvent["type"]> = new Set(["tool-call-end", "llm-call-retry"]);

/** A tool's stats as the process keeps them (never handed out: see {@link copiedStats}). */
type MutableToolStats = { -readonly [K in keyof ToolStats]: ToolStats[K] };

/** The entries of `tools` with copies of the stats, so what a caller holds never changes. */
function copiedStats(tools: Map<string, MutableToolStats> | undefined): [string, ToolStats][] {
  return tools ? [...tools].map(([name, stats]) => [name, { ...stats }]) : [];
}

/** The models a process used, in order of first use. */
function modelsOf(state: ProcessState): ModelUsed[] {
  if (state.models) return [...state.models.values()];
  return state.lastModel ? [state.lastModel] : [];
}

function modelKey(kind: ModelUsed["kind"], provider: string, modelId: string): string {
  return `${kind}\u0000${provider}\u0000${modelId}`;
}

/** The platform's handle on one process: a small object over the process's state (one per process). */
class DefaultProcessControl implements ProcessControl {
  constructor(
    private readonly state: ProcessState,
    readonly observed: boolean,
    private readonly dispatch: (event: ProcessLifecycleEvent) => void,
    private readonly child: boolean,
    private readonly processId: string,
  ) {}

  actionStarted(): void {
    this.state.waits?.actionStarted();
  }

  actionEnded(): void {
    this.state.waits?.actionEnded();
  }

  wait(signal: AwaitingResponse): void {
    if (this.child) throw signal;
    const state = this.state;
    state.waits ??= new ProcessWaits();
    const opened = state.waits.ask(signal.requests, Date.now());
    state.status = "waiting";
    state.statusReason = `Waiting for: ${state.waits.requests.map((request) => `${request.id} ${request.what}`).join("; ")}`;
    if (this.observed && opened.length > 0) this.dispatch({ type: "awaiting-response", requests: opened });
  }

  resume(): void {
    this.expire(Date.now());
    this.state.status = "running";
    this.state.statusReason = undefined;
  }

  answer(requestId: string, response: unknown, respondent: string): AcceptedResponse {
    const waits = this.state.waits ?? new ProcessWaits();
    const accepted = waits.answer(this.processId, requestId, response as never, Date.now());
    this.received(accepted, respondent);
    return accepted;
  }

  expire(now: number): void {
    for (const accepted of this.state.waits?.expire(now) ?? []) this.received(accepted, "timeout");
  }

  private received(accepted: AcceptedResponse, respondent: string): void {
    if (this.state.status === "waiting") {
      const open = this.state.waits?.requests ?? [];
      this.state.statusReason = `Waiting for: ${open.map((request) => `${request.id} ${request.what}`).join("; ")}`;
    }
    const { request, response, waitedMs } = accepted;
    const approved = (response as { approved?: unknown }).approved;
    recordWaitSpan(this.processId, accepted, respondent);
    if (!this.observed) return;
    this.dispatch({
      type: "response-received",
      requestId: request.id,
      kind: request.kind,
      what: request.what,
      respondent,
      waitedMs,
      ...(typeof approved === "boolean" ? { approved } : {}),
      response,
    });
  }

  setGoal(goal: AgentGoal | undefined): void {
    this.state.goal = goal;
  }

  setAction(action: string | undefined): void {
    this.state.action = action;
  }

  recordAction(invocation: ActionInvocation): void {
    this.state.history.push(invocation);
  }

  finish(
    status: AgentProcessStatus,
    reason?: string,
    details?: { failure?: unknown; result?: unknown },
  ): void {
    const state = this.state;
    state.status = status;
    state.statusReason = reason;
    state.failure = details?.failure;
    if (details !== undefined && "result" in details) state.result = details.result;
    state.endedAt = Date.now();
  }

  emit(event: ProcessLifecycleEvent): void {
    this.dispatch(event);
  }

  get terminateRequest(): string | undefined {
    return this.state.terminateRequest;
  }
}

function restoredState(checkpoint: ProcessCheckpoint, agent: Agent | undefined): ProcessState {
  return {
    status: checkpoint.status,
    statusReason: checkpoint.statusReason,
    failure: checkpoint.failure,
    result: checkpoint.result,
    goal: agent?.goals.find((goal) => goal.name === checkpoint.goalName),
    endedAt: checkpoint.endedAt,
    terminateRequest: checkpoint.terminateRequest,
    history: [...checkpoint.history],
    usage: checkpoint.usage,
    costUsd: checkpoint.costUsd,
    llmInvocations: checkpoint.llmInvocations,
    llmRetries: checkpoint.llmRetries ?? 0,
    embeddingInvocations: checkpoint.embeddingInvocations,
    models: new Map(
      checkpoint.modelsUsed.map((model) => [modelKey(model.kind, model.provider, model.modelId), model]),
    ),
    lastModel: undefined,
    tools: new Map(checkpoint.toolStats.map(([name, stats]) => [name, { ...stats }])),
    action: undefined,
    waits: checkpoint.waiting ? new ProcessWaits(checkpoint.waiting) : undefined,
  };
}
