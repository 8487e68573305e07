import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3ToolChoice,
} from "@ai-sdk/provider";
import type { Span } from "@opentelemetry/api";
import { AwaitingResponse } from "../errors/awaiting-response.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { MaxIterationsExceededError } from "../errors/max-iterations-exceeded-error.js";
import type { BlackboardUpdater } from "../errors/replan-requested.js";
import type { ApprovalAuthority } from "../tool/approval-authority.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { checkTimeoutMs } from "../tool/tool-metadata.js";
import type { ToolResult } from "../tool/tool-result.js";
import { settledCall } from "./approval-gate.js";
import { callModel, type ModelResponse } from "./call-model.js";
import { checkMaxToolResultChars, DEFAULT_MAX_TOOL_RESULT_CHARS } from "./cap-tool-result.js";
import { flatUuid } from "./flat-uuid.js";
import { assistantMessage, emptyReplyNudge, textOf, toolCallsOf, toolMessage } from "./loop-messages.js";
import {
  contextOf,
  currentCallKey,
  emit,
  endSpan,
  type LoopEventListener,
  listenerFor,
  startLlmSpan,
} from "./loop-telemetry.js";
import { addUsage, usageOf, ZERO_USAGE } from "./loop-usage.js";
import type { FinishedLoop, LoopWaits, SettledCall, SuspendedLoop } from "./loop-waits.js";
import { DEFAULT_INITIAL_RETRY_DELAY_MS, DEFAULT_MAX_RETRIES, ModelCallRetries } from "./model-call-retry.js";
import { restoreToolSet } from "./restore-tool-set.js";
import { captureLoopStates, restoreStrategyStates, restoreToolStates } from "./resumable-state.js";
import { runToolBatch, settledKey, type ToolBatchEnvironment } from "./run-tool-batch.js";
import { ToolInjectionStrategy } from "./tool-injection-strategy.js";
import { ToolSet } from "./tool-set.js";
import { UnknownToolCounter } from "./unknown-tool.js";

/** Token counts of one or more LLM calls. */
export interface LlmUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/** Sampling settings passed through to the model. */
export interface LlmCallSettings {
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly seed?: number;
  readonly stopSequences?: readonly string[];
  readonly providerOptions?: LanguageModelV3CallOptions["providerOptions"];
}

/** Everything the loop reports while it runs (for tracing, stats, budgets, tests). */
export type ToolLoopEvent =
  | {
      readonly type: "llm-call-start";
      readonly loopId: string;
      /** The interaction's name, when the caller gave one (`PromptRunner.withInteractionId`). */
      readonly interactionId?: string;
      readonly iteration: number;
      readonly toolNames: readonly string[];
      /** The messages sent (the conversation so far); a reference, never copied for the event. */
      readonly prompt?: LanguageModelV3Prompt;
      /** The tool definitions sent, in order; a reference, never copied for the event. */
      readonly tools?: readonly LanguageModelV3FunctionTool[];
    }
  | {
      readonly type: "llm-call-end";
      readonly loopId: string;
      /** The interaction's name, when the caller gave one (`PromptRunner.withInteractionId`). */
      readonly interactionId?: string;
      readonly iteration: number;
      readonly modelId: string;
      readonly provider: string;
      readonly usage: LlmUsage;
      readonly durationMs: number;
      /** What the model replied (text, tool calls); a reference, never copied for the event. */
      readonly content?: readonly LanguageModelV3Content[];
      /** Cost in US dollars, when the model's price is known (added by the prompt runner). */
      readonly costUsd?: number;
    }
  | {
      /** A model call failed with a retryable error (429, 5xx, a connection reset) and is tried again after `delayMs`. */
      readonly type: "llm-call-retry";
      readonly loopId: string;
      /** The interaction's name, when the caller gave one (`PromptRunner.withInteractionId`). */
      readonly interactionId?: string;
      /** The LLM call (round) being retried. */
      readonly iteration: number;
      /** The attempt about to be made: 2 for the first retry. */
      readonly attempt: number;
      /** Attempts allowed in all (`maxRetries + 1`). */
      readonly maxAttempts: number;
      /** The wait before the attempt: the provider's `retry-after`, else exponential backoff with jitter. */
      readonly delayMs: number;
      /** What failed, in a few words: the HTTP status (`429`), else the error's message, cut. */
      readonly reason: string;
      /** The HTTP status of the failed attempt, when there was a response. */
      readonly statusCode?: number;
      /** The provider's error message. */
      readonly message: string;
    }
  | {
      readonly type: "tool-call-start";
      readonly loopId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: string;
      /** The call this one runs inside (a code-mode program's inner call, under the code call), when there is one. */
      readonly parentToolCallId?: string;
    }
  | {
      readonly type: "tool-call-end";
      readonly loopId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: string;
      readonly result: ToolResult;
      readonly durationMs: number;
    }
  | {
      readonly type: "tools-changed";
      readonly loopId: string;
      readonly added: readonly string[];
      readonly removed: readonly string[];
    };

/** Input of {@link runToolLoop}. */
export interface ToolLoopOptions {
  readonly model: LanguageModelV3;
  /** The conversation so far; system message first. */
  readonly prompt: LanguageModelV3Prompt;
  readonly tools: readonly Tool[];
  /** @default ToolInjectionStrategy.DEFAULT (unfolding support) */
  readonly injectionStrategy?: ToolInjectionStrategy;
  /** Passed to every tool call; a context without a loop id (`ToolCallContext.LOOP_ID_KEY`) gets a fresh one, a context with one keeps it (one turn over several loops). @default ToolCallContext.EMPTY */
  readonly context?: ToolCallContext;
  /** @default 20 */
  readonly maxIterations?: number;
  readonly signal?: AbortSignal;
  readonly settings?: LlmCallSettings;
  /** Structured output request passed to the model. */
  readonly responseFormat?: LanguageModelV3CallOptions["responseFormat"];
  /** Applied to every tool the loop offers, initial and injected; must keep the tool's name (else a `ConfigurationError`). */
  readonly toolDecorator?: (tool: Tool) => Tool;
  /** Names the LLM interaction this loop runs: its `llm-call-start`/`llm-call-end` events carry it. @default undefined */
  readonly interactionId?: string;
  /** Receives every event (of `eventTypes`); must not throw. */
  readonly onEvent?: (event: ToolLoopEvent) => void;
  /** The event types `onEvent` receives; events of other types are never built. @default every type */
  readonly eventTypes?: ReadonlySet<ToolLoopEvent["type"]>;
  /** Called before every LLM call; throwing ends the loop with that error (budgets). */
  readonly beforeLlmCall?: (state: { readonly iteration: number; readonly usage: LlmUsage }) => void;
  /** When set, text is streamed through `doStream` and each delta passed here. */
  readonly onTextDelta?: (delta: string) => void;
  /** Run the tool calls of one LLM reply concurrently; results stay in call order. Without `toolTimeoutMs`, a round of several calls gives each 30 s and the round 60 s (the reference's parallel loop): a call past either is answered `Error: Tool execution timed out`. @default false */
  readonly parallelToolCalls?: boolean;
  /** How the model may choose tools; sent only when set. @default undefined (the provider's default, "auto") */
  readonly toolChoice?: LanguageModelV3ToolChoice;
  /** Consecutive calls of unknown tools answered in-band before a `ToolNotFoundError`. @default 3 */
  readonly maxUnknownToolRetries?: number;
  /** Extra HTTP headers for the provider. */
  readonly headers?: Record<string, string | undefined>;
  /** Retries of a model call that failed with a retryable error (the provider's `APICallError.isRetryable`: 429, 408, 409, 5xx, connection failures), waiting as the provider's `retry-after` / `retry-after-ms` says (up to 60 s; a longer wait is not retried) or else with exponential backoff and jitter; 0 disables retries. @default 2 */
  readonly maxRetries?: number;
  /** The first backoff wait when the provider names none; each later one doubles (jittered to between half and all of it). @default 2000 */
  readonly initialRetryDelayMs?: number;
  /** The most characters of one tool result sent to the model; the rest is cut with a note saying how much was cut and how to get more (narrower arguments). An artifact stays whole; a tool's own `metadata.maxResultChars` wins; returnDirect results are never cut. `Infinity`: no cap. @default 100000 */
  readonly maxToolResultChars?: number;
  /** A tool call running longer is answered in-band (`Error: Tool execution timed out`), its signal aborted, and the loop goes on; a tool's own `metadata.toolTimeoutMs` wins. Set, it replaces the parallel defaults (no 60 s round limit). @default undefined (no limit; 30 s per call and 60 s per round for a parallel round of several calls) */
  readonly toolTimeoutMs?: number;
  /** Passed to every tool call as `ToolCallOptions.inProcess` (a platform's runner outside any process sets it). */
  readonly inProcess?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The agent process's waits: tools needing approval stop the loop (an {@link AwaitingResponse} is thrown after the loop's state is kept here), and a resumed action replays or resumes its loops from here. @default undefined */
  readonly waits?: LoopWaits;
  /** Who answers approvals (an approval callback); wins over `waits`. @default undefined (`waits`; with neither, a call needing approval throws an `ApprovalUnavailableError`) */
  readonly approvals?: ApprovalAuthority;
}

/** Output of {@link runToolLoop}. */
export interface ToolLoopResult {
  /** The final answer (or a returnDirect tool's content; "" on replan). */
  readonly text: string;
  /** The whole conversation, including tool calls and results. */
  readonly prompt: LanguageModelV3Prompt;
  readonly iterations: number;
  readonly usage: LlmUsage;
  readonly loopId: string;
  /** The tools offered at the end (a loop replayed on resuming a process: the tools it was given). */
  readonly tools: readonly Tool[];
  /** Tools added to the list while the loop ran (a replayed loop: none, they are not kept). */
  readonly injectedTools: readonly Tool[];
  /** Tools removed from the list while the loop ran (a replayed loop: none). */
  readonly removedTools: readonly Tool[];
  /** True when a returnDirect tool's result is the answer. */
  readonly returnedDirect: boolean;
  /** Model calls retried after a retryable failure (each retry counts once). */
  readonly llmRetries: number;
  /** Set when a tool asked the agent process to replan. */
  readonly replan?: { readonly reason: string; readonly blackboardUpdater: BlackboardUpdater };
}

function baseCallOptions(options: ToolLoopOptions): Omit<LanguageModelV3CallOptions, "prompt"> {
  const settings = options.settings ?? {};
  const base: Record<string, unknown> = {};
  // Stryker disable ConditionalExpression: true only adds a key set to undefined, which the call options treat as absent
  if (settings.temperature !== undefined) base.temperature = settings.temperature;
  if (settings.maxOutputTokens !== undefined) base.maxOutputTokens = settings.maxOutputTokens;
  if (settings.topP !== undefined) base.topP = settings.topP;
  if (settings.topK !== undefined) base.topK = settings.topK;
  if (settings.seed !== undefined) base.seed = settings.seed;
  // Stryker restore ConditionalExpression
  if (settings.stopSequences !== undefined) base.stopSequences = [...settings.stopSequences];
  // Stryker disable ConditionalExpression: as above
  if (settings.providerOptions !== undefined) base.providerOptions = settings.providerOptions;
  if (options.responseFormat !== undefined) base.responseFormat = options.responseFormat;
  if (options.toolChoice !== undefined) base.toolChoice = options.toolChoice;
  if (options.headers !== undefined) base.headers = options.headers;
  if (options.signal !== undefined) base.abortSignal = options.signal;
  // Stryker restore ConditionalExpression
  return base;
}

/**
 * Runs the tool loop to a text answer, a returnDirect result, a replan, or the
 * iteration limit (a {@link MaxIterationsExceededError} carrying the transcript).
 * Each round sends the current tools as JSON Schema, executes the calls the
 * model made, feeds the results back and lets the injection strategy change
 * the tools for the next round. Inside an agent process, a call that needs a
 * person's approval stops the loop: its state is kept in `waits` and an
 * {@link AwaitingResponse} thrown; run again in the resumed action, the loop
 * goes on from that state without calling the model for the stopped round.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult> {
  const { signal, onEvent, eventTypes } = options;
  const maxIterations = options.maxIterations ?? 20;
  checkCount("maxIterations", maxIterations, 1);
  if (options.maxUnknownToolRetries !== undefined)
    checkCount("maxUnknownToolRetries", options.maxUnknownToolRetries, 0);
  if (options.toolTimeoutMs !== undefined) checkTimeoutMs("The tool loop's", options.toolTimeoutMs);
  if (options.maxToolResultChars !== undefined)
    checkMaxToolResultChars("The tool loop's", options.maxToolResultChars);
  const waits = options.waits;
  // A loop inside a tool call (an agentic tool's) finds its own slot by the call's key, even in a parallel round.
  const slot = waits?.enter(currentCallKey());
  const entry = slot?.entry;
  let resumed: SuspendedLoop | undefined;
  if (entry?.kind === "loop-done") return replayed(entry.loop, options);
  if (entry?.kind === "loop-suspended") resumed = entry.loop;
  const given = options.context ?? ToolCallContext.EMPTY;
  const loopId = resumed?.loopId ?? given.loopId() ?? flatUuid();
  // Stryker disable next-line ConditionalExpression: false only copies a context that already holds this loop id, same entries
  const context = given.loopId() === loopId ? given : given.with(ToolCallContext.LOOP_ID_KEY, loopId);
  const strategy = options.injectionStrategy ?? ToolInjectionStrategy.DEFAULT;
  const tools = ToolSet.of(options.tools, options.toolDecorator);
  if (resumed) {
    const offered = restoreStrategyStates(strategy, resumed.states, context);
    restoreToolSet(tools, resumed.toolNames, [...options.tools, ...offered], options.toolDecorator);
    restoreToolStates(tools.tools, resumed.states, context);
  }
  const prompt: LanguageModelV3Prompt = resumed ? [...resumed.prompt] : [...options.prompt];
  const base = baseCallOptions(options);
  const injectedTools: Tool[] = [];
  const removedTools: Tool[] = [];
  const inProcess = options.inProcess;
  // Who answers approvals: the caller's callback, else the agent process's waits, else nobody (a call needing approval throws).
  const approvals: ApprovalAuthority | undefined = options.approvals ?? waits;
  const callOptions: ToolCallOptions = {
    ...(signal ? { signal } : {}),
    ...(inProcess ? { inProcess } : {}),
    ...(approvals ? { approvals } : {}),
  };
  const unknownTools = new UnknownToolCounter(options.maxUnknownToolRetries);
  const retries = new ModelCallRetries({
    model: options.model,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    initialDelayMs: options.initialRetryDelayMs ?? DEFAULT_INITIAL_RETRY_DELAY_MS,
    signal,
    loopId,
    interactionId: options.interactionId,
    onRetry: listenerFor(onEvent, eventTypes, "llm-call-retry"),
    onTextDelta: options.onTextDelta,
  });
  let usage = resumed?.usage ?? ZERO_USAGE;
  let nudged = resumed?.nudged ?? false;
  const finish = (text: string, iterations: number, extra: Partial<ToolLoopResult> = {}): ToolLoopResult => {
    const result: ToolLoopResult = {
      text,
      prompt,
      iterations,
      usage,
      loopId,
      tools: tools.tools,
      injectedTools,
      removedTools,
      returnedDirect: false,
      llmRetries: retries.count,
      ...extra,
    };
    // A loop that ended with a replan is not kept (its blackboard updater can't be): it runs again on resuming.
    const kept = extra.replan === undefined;
    // Stryker disable next-line ConditionalExpression: slot is undefined only without waits, where waits?.record is never called
    if (slot !== undefined && kept) {
      const loop: FinishedLoop = {
        loopId,
        text,
        prompt,
        iterations,
        usage,
        returnedDirect: result.returnedDirect,
      };
      // Stryker disable next-line OptionalChaining: a slot comes from waits, so waits is set here
      waits?.record(slot.index, {
        kind: "loop-done",
        loop,
        ...(slot.key === undefined ? {} : { key: slot.key }),
      });
    }
    return result;
  };

  const environment: ToolBatchEnvironment = {
    tools,
    unknownTools,
    context,
    callOptions,
    loopId,
    strategy,
    parallel: options.parallelToolCalls === true,
    record: (added, removed) => {
      injectedTools.push(...added);
      removedTools.push(...removed);
    },
    ...(signal ? { signal } : {}),
    onToolCallStart: listenerFor(onEvent, eventTypes, "tool-call-start"),
    onToolCallEnd: listenerFor(onEvent, eventTypes, "tool-call-end"),
    onToolsChanged: listenerFor(onEvent, eventTypes, "tools-changed"),
    ...(options.toolDecorator ? { decorate: options.toolDecorator } : {}),
    // Stryker disable next-line ConditionalExpression: true only sets toolTimeoutMs: undefined, the same as none
    ...(options.toolTimeoutMs !== undefined ? { toolTimeoutMs: options.toolTimeoutMs } : {}),
    maxToolResultChars: options.maxToolResultChars ?? DEFAULT_MAX_TOOL_RESULT_CHARS,
    ...(waits ? { waits } : {}),
    ...(approvals ? { approvals } : {}),
  };

  const onLlmCallStart = listenerFor(onEvent, eventTypes, "llm-call-start");
  const onLlmCallEnd = listenerFor(onEvent, eventTypes, "llm-call-end");
  for (let iteration = resumed?.iteration ?? 1; iteration <= maxIterations; iteration += 1) {
    let content: readonly LanguageModelV3Content[];
    let span: Span | undefined;
    let settled: Map<string, SettledCall> | undefined;
    if (resumed === undefined) {
      signal?.throwIfAborted();
      options.beforeLlmCall?.({ iteration, usage });
      // The model call is awaited here, not in a helper: each async layer is a frame and promises per round.
      // Not `{ ...base, prompt }`: spreading a non-empty object (a signal, settings) takes V8's slow path, about 600 bytes a round.
      const request: LanguageModelV3CallOptions = Object.assign({ prompt: prompt.slice() }, base);
      const round = beginLlmRound(options, tools, request, loopId, iteration, onLlmCallStart, onLlmCallEnd);
      let response: ModelResponse | undefined;
      retries.beginRound();
      try {
        try {
          response = await callModel(options.model, request, retries.onTextDelta);
        } catch (error) {
          response = await retries.retry(error, request, iteration);
        }
      } catch (error) {
        endSpan(round.span, error);
        throw error;
      }
      const roundUsage = endLlmRound(options, round, response, loopId, iteration, onLlmCallEnd);
      // Only the reply's parts are kept: a provider's result also carries the raw request and response bodies.
      content = response.content;
      response = undefined;
      span = round.span;
      usage = addUsage(usage, roundUsage);
    } else {
      // The round that stopped for a person: its reply is kept, the model is not called again.
      content = resumed.content;
      settled = new Map(resumed.settled.map((call) => [settledKey(call), call]));
      if (resumed.resumeSlot !== undefined) waits?.skipTo?.(resumed.resumeSlot);
      resumed = undefined;
    }
    const calls = toolCallsOf(content);
    if (calls.length === 0) {
      const reply = assistantMessage(content);
      const text = textOf(content);
      if (text.trim() === "" && !nudged && iteration < maxIterations) {
        nudged = true; // an empty reply gets one short nudge, then counts as the answer
        if (reply.content.length > 0) prompt.push(reply);
        prompt.push(emptyReplyNudge());
        continue;
      }
      prompt.push(reply);
      return finish(text, iteration);
    }
    const spanParent = span === undefined ? undefined : contextOf(span);
    const batch = await runToolBatch(
      calls,
      spanParent ? { ...environment, spanParent } : environment,
      iteration,
      settled,
    );
    if (batch.suspended !== undefined) {
      const { requests, signal: waiting, slot: resumeSlot } = batch.suspended;
      // Stryker disable next-line ConditionalExpression: slot is undefined only without waits, where waits?.record is never called
      if (slot !== undefined) {
        const states = captureLoopStates(strategy, tools.tools, context);
        const loop: SuspendedLoop = {
          loopId,
          // Stryker disable next-line MethodExpression: the transcript is not changed after a loop stops to wait (it throws next)
          prompt: prompt.slice(),
          content,
          iteration,
          usage,
          nudged,
          settled: batch.outcomes.map((outcome, position) =>
            settledCall(outcome, batch.suspended?.indexes[position] ?? position),
          ),
          toolNames: [...tools.toolNames],
          ...(states === undefined ? {} : { states }),
          ...(resumeSlot === undefined ? {} : { resumeSlot }),
        };
        // Stryker disable next-line OptionalChaining: a slot comes from waits, so waits is set here
        waits?.record(slot.index, {
          kind: "loop-suspended",
          loop,
          ...(slot.key === undefined ? {} : { key: slot.key }),
        });
      }
      throw waiting ?? new AwaitingResponse(requests);
    }
    prompt.push(assistantMessage(content, batch.outcomes));
    if (batch.outcomes.length > 0) prompt.push(toolMessage(batch.outcomes));
    if (batch.replan?.replan) {
      const { reason, blackboardUpdater } = batch.replan.replan;
      return finish("", iteration, { replan: { reason, blackboardUpdater } });
    }
    if (batch.returnDirect !== undefined)
      return finish(batch.returnDirect, iteration, { returnedDirect: true });
  }
  throw new MaxIterationsExceededError(maxIterations, prompt);
}

/** A loop finished before its action stopped to wait: its result again, without calling the model. */
function replayed(loop: FinishedLoop, options: ToolLoopOptions): ToolLoopResult {
  return {
    text: loop.text,
    prompt: loop.prompt,
    iterations: loop.iterations,
    usage: loop.usage,
    loopId: loop.loopId,
    tools: options.tools,
    injectedTools: [],
    removedTools: [],
    returnedDirect: loop.returnedDirect,
    llmRetries: 0,
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function checkCount(option: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigurationError(`The tool loop's ${option} must be an integer >= ${min}, got ${value}.`);
  }
}

/** An LLM call in flight: its span, and when it started (0 when nobody is told its duration). */
interface LlmRound {
  readonly span: Span;
  readonly started: number;
}

/** Before an LLM call: sets the offered tools on `request`, emits `llm-call-start` and starts the call's span. */
function beginLlmRound(
  options: ToolLoopOptions,
  tools: ToolSet,
  request: LanguageModelV3CallOptions,
  loopId: string,
  iteration: number,
  onStart: LoopEventListener | undefined,
  onEnd: LoopEventListener | undefined,
): LlmRound {
  const { model, interactionId } = options;
  const definitions = tools.providerDefinitions;
  if (definitions.length > 0) request.tools = definitions as LanguageModelV3FunctionTool[];
  // Stryker disable next-line ConditionalExpression: true only calls an absent listener, and emit swallows the TypeError
  if (onStart !== undefined) {
    const event: Mutable<Extract<ToolLoopEvent, { type: "llm-call-start" }>> = {
      type: "llm-call-start",
      loopId,
      iteration,
      toolNames: tools.toolNames,
      prompt: request.prompt,
      tools: definitions as readonly LanguageModelV3FunctionTool[],
    };
    // Stryker disable next-line ConditionalExpression: true only adds interactionId: undefined, the same as none
    if (interactionId !== undefined) event.interactionId = interactionId;
    emit(onStart, event);
  }
  return {
    span: startLlmSpan(loopId, iteration, model.modelId, model.provider),
    // Stryker disable next-line ConditionalExpression: false only times a call nobody is told about
    started: onEnd === undefined ? 0 : performance.now(),
  };
}

/** After an LLM call answered `response`: ends the span, emits `llm-call-end`, and returns the call's usage. */
function endLlmRound(
  options: ToolLoopOptions,
  round: LlmRound,
  response: ModelResponse,
  loopId: string,
  iteration: number,
  onEnd: LoopEventListener | undefined,
): LlmUsage {
  const { model, interactionId } = options;
  const usage = usageOf(response.usage);
  const span = round.span;
  // Stryker disable next-line ConditionalExpression: true ends a span that does not record through endSpan, which then only ends it
  if (span.isRecording()) {
    endSpan(span, undefined, {
      "gen_ai.usage.input_tokens": usage.inputTokens,
      "gen_ai.usage.output_tokens": usage.outputTokens,
    });
  } else span.end();
  // Stryker disable next-line ConditionalExpression: true only calls an absent listener, and emit swallows the TypeError
  if (onEnd !== undefined) {
    const event: Mutable<Extract<ToolLoopEvent, { type: "llm-call-end" }>> = {
      type: "llm-call-end",
      loopId,
      iteration,
      modelId: model.modelId,
      provider: model.provider,
      usage,
      durationMs: performance.now() - round.started,
      content: response.content,
    };
    // Stryker disable next-line ConditionalExpression: true only adds interactionId: undefined, the same as none
    if (interactionId !== undefined) event.interactionId = interactionId;
    emit(onEnd, event);
  }
  return usage;
}
