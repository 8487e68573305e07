// Over 400 lines: AgentProcess is the object users hold; each concern it reports (usage, tool statistics, waits, control, state) is a sibling file it delegates to, and what is left is its identity, budgets and the LLM host hooks.
import type { LanguageModelV3 } from "@ai-sdk/provider";
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
import type { ActionInvocation } from "./action-invocation.js";
import type { AgentGoal } from "./agent-goal.js";
import type { Agent } from "./agent-interface.js";
import type { AgentPlatformApi } from "./agent-platform-api.js";
import { AgentProcessStatus } from "./agent-process-status.js";
import type { AwaitableRequest } from "./awaitable.js";
import { Blackboard } from "./blackboard.js";
import { dispatchProcessEvent } from "./dispatch-process-event.js";
import type { ProcessCheckpoint } from "./process-checkpoint.js";
import { DefaultProcessControl, type ProcessControl } from "./process-control.js";
import type { ProcessLifecycleEvent } from "./process-event.js";
import { ProcessOptions } from "./process-options.js";
import { initialState, type ProcessState, restoredState } from "./process-state.js";
import type { EmbeddingCall, ModelUsed } from "./process-usage.js";
import { ProcessWaits } from "./process-waits.js";
import { withPromptReporting } from "./prompt-reporting-model.js";
import type { ToolStats } from "./tool-statistics.js";

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
  readonly platform?: AgentPlatformApi;
  /** The process id. @default a random UUID */
  readonly id?: string;
  /** Continue from this state (its id, blackboard, history, usage, status) instead of starting empty. */
  readonly checkpoint?: ProcessCheckpoint;
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
  readonly platform: AgentPlatformApi | undefined;
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
    this.state = checkpoint ? restoredState(checkpoint, init.agent?.goals ?? []) : initialState();
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
    return this.state.usage.usage;
  }
  /** Cost in US dollars of every LLM and embedding call with a known price, child processes included. */
  get costUsd(): number {
    return this.state.usage.costUsd;
  }
  /** How many LLM calls the process and its child processes made. */
  get llmInvocations(): number {
    return this.state.usage.llmInvocations;
  }
  /** How many LLM calls of the process and its child processes were retried after a retryable failure (429, 5xx, a connection reset); each retry counts once. */
  get llmRetries(): number {
    return this.state.usage.llmRetries;
  }
  /** How many embedding calls the process and its child processes made. */
  get embeddingInvocations(): number {
    return this.state.usage.embeddingInvocations;
  }
  /** The models called (language and embedding), in order of first use. */
  get modelsUsed(): readonly ModelUsed[] {
    return this.state.usage.modelsUsed;
  }
  /** Calls per tool name. */
  get toolStats(): ReadonlyMap<string, ToolStats> {
    return new Map(this.state.tools.entries());
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
      usage: state.usage.usage,
      costUsd: state.usage.costUsd,
      llmInvocations: state.usage.llmInvocations,
      llmRetries: state.usage.llmRetries,
      embeddingInvocations: state.usage.embeddingInvocations,
      modelsUsed: state.usage.modelsUsed,
      toolStats: state.tools.entries(),
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
    const { usage, costUsd } = this.state.usage;
    if (usage.totalTokens >= budget.tokens) {
      throw new BudgetExceededError("tokens", budget.tokens, usage.totalTokens);
    }
    if (costUsd > budget.cost) throw new BudgetExceededError("cost", budget.cost, costUsd);
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
      this.state.tools.record(event.toolName, event.result.kind === "error", event.durationMs);
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
    this.state.usage.addLlmCall(call);
  }

  private addLlmRetry(): void {
    this.parentProcess?.addLlmRetry();
    this.state.usage.addRetry();
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
    this.state.usage.addEmbeddingCall(call);
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
    if (this.observed) dispatchProcessEvent(this.id, this.processOptions, event);
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
