import type { LanguageModelV3CallOptions, LanguageModelV3Message } from "@ai-sdk/provider";
import type { ToolChainingSession } from "../chaining/tool-chaining.js";
import { ReplanRequested } from "../errors/replan-requested.js";
import { ChainedToolInjectionStrategy } from "../loop/chained-tool-injection-strategy.js";
import type { ToolInjectionStrategy } from "../loop/tool-injection-strategy.js";
import { runToolLoop, type ToolLoopEvent, type ToolLoopResult } from "../loop/tool-loop.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { LlmInteractionHost } from "./llm-interaction-host.js";
import { LlmReference } from "./llm-reference.js";
import type { PromptRunnerState } from "./prompt-runner-state.js";
import { resolveToolSources } from "./tool-source.js";

/** One call of a runner: the conversation after the system message, and what to ask of the output. */
export interface InteractionRequest {
  readonly messages: readonly LanguageModelV3Message[];
  /** Appended to the system message (the output format). */
  readonly outputInstructions?: string;
  readonly responseFormat?: LanguageModelV3CallOptions["responseFormat"];
  readonly signal?: AbortSignal;
  /** Streams the answer's text through `doStream`, passing each delta here. */
  readonly onTextDelta?: (delta: string) => void;
  /** The loop id to run under when the context has none (a retry continuing an earlier loop's turn). */
  readonly loopId?: string;
  /** The tool-chaining session to continue (a retry keeps the bindings made before it). @default a new one */
  readonly chaining?: ToolChainingSession;
}

/** The one system message: reference contributions, then system prompts, then output instructions. */
export function systemMessage(state: PromptRunnerState, outputInstructions?: string): string {
  const parts = [
    ...state.references.map((reference) => LlmReference.contribution(reference).trim()),
    ...state.systemPrompts,
    ...(outputInstructions ? [outputInstructions] : []),
  ];
  return parts.join("\n\n");
}

/** The one signal aborting when any of the three does (`undefined` when none is set). */
function combineSignals(
  a: AbortSignal | undefined,
  b: AbortSignal | undefined,
  c: AbortSignal | undefined,
): AbortSignal | undefined {
  const set = (a ? 1 : 0) + (b ? 1 : 0) + (c ? 1 : 0);
  if (set <= 1) return a ?? b ?? c;
  return AbortSignal.any([a, b, c].filter((signal): signal is AbortSignal => signal !== undefined));
}

/** Whether `value` is a promise or another thenable (a custom `resolveLlm` may return one from another library). */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** Sets extended by {@link withUsage}, so a host's one set is extended once, not per interaction. */
const extendedTypes = new WeakMap<ReadonlySet<ToolLoopEvent["type"]>, ReadonlySet<ToolLoopEvent["type"]>>();

/** `types` with `llm-call-end`, which the runner always needs (usage and cost for `recordLlmCall`). */
function withUsage(types: ReadonlySet<ToolLoopEvent["type"]>): ReadonlySet<ToolLoopEvent["type"]> {
  if (types.has("llm-call-end")) return types;
  let extended = extendedTypes.get(types);
  if (extended === undefined) {
    extended = new Set([...types, "llm-call-end"]);
    extendedTypes.set(types, extended);
  }
  return extended;
}

/** `undefined` (the loop's default, unfolding) or unfolding followed by `strategies`. */
function chain(strategies: readonly ToolInjectionStrategy[]): ToolInjectionStrategy | undefined {
  return strategies.length === 0 ? undefined : ChainedToolInjectionStrategy.withUnfolding(...strategies);
}

/**
 * Runs one interaction through the tool loop: resolves the model and tools
 * now, merges the process context (from the ambient {@link LlmInteractionHost})
 * with the runner's (the runner's wins), and reports events and usage to the host.
 * A tool's replan request is rethrown as {@link ReplanRequested}.
 */
export async function runInteraction(
  state: PromptRunnerState,
  request: InteractionRequest,
): Promise<ToolLoopResult> {
  const host = LlmInteractionHost.current();
  const signal = combineSignals(host?.signal, state.signal, request.signal);
  signal?.throwIfAborted();
  // Awaited only when asynchronous: a loaded model and plain tools cost no promise per interaction.
  const resolvingLlm = state.services.resolveLlm(state.llm);
  const llm = isThenable(resolvingLlm) ? await resolvingLlm : resolvingLlm;
  const resolving = resolveToolSources(state.sources, state.services.toolGroups, { signal });
  const resolved = isThenable(resolving) ? await resolving : resolving;
  const chaining = request.chaining ?? (state.chaining.isEmpty ? undefined : state.chaining.start());
  const tools = chaining ? [...resolved, ...chaining.tools] : resolved;
  const system = systemMessage(state, request.outputInstructions);
  const merged = (host?.toolCallContext ?? ToolCallContext.EMPTY).merge(state.context);
  const context =
    request.loopId !== undefined && merged.loopId() === undefined
      ? merged.with(ToolCallContext.LOOP_ID_KEY, request.loopId)
      : merged;
  // Without a host nobody reads the loop's events, so the loop builds none.
  const hostTypes = host?.loopEventTypes;
  const hostGetsLlmCallEnd = hostTypes === undefined || hostTypes.has("llm-call-end");
  const onEvent = host
    ? (event: ToolLoopEvent): void => {
        if (event.type === "llm-call-end") {
          const costUsd = state.services.costOf?.(event);
          if (hostGetsLlmCallEnd) host.onLoopEvent(costUsd === undefined ? event : { ...event, costUsd });
          host.recordLlmCall({
            provider: event.provider,
            modelId: event.modelId,
            usage: event.usage,
            costUsd,
            modelName: llm.name,
            durationMs: event.durationMs,
          });
          return;
        }
        host.onLoopEvent(event);
      }
    : undefined;
  const result = await runToolLoop({
    model: host?.observeModel ? host.observeModel(llm.model) : llm.model,
    prompt: [
      ...(system.length > 0 ? [{ role: "system" as const, content: system }] : []),
      ...request.messages,
    ],
    tools,
    injectionStrategy: chain(chaining ? [...state.strategies, chaining.strategy] : state.strategies),
    context,
    maxIterations: state.maxIterations,
    ...(host === undefined && state.services.inProcess ? { inProcess: state.services.inProcess } : {}),
    maxRetries: state.maxRetries ?? host?.maxRetries ?? state.services.maxRetries,
    maxToolResultChars: state.maxToolResultChars,
    ...(state.interactionId === undefined ? {} : { interactionId: state.interactionId }),
    signal,
    settings: llm.settings,
    responseFormat: request.responseFormat,
    toolDecorator: host?.decorateTool ? (tool) => host.decorateTool?.(tool) ?? tool : undefined,
    onEvent,
    eventTypes: hostTypes && withUsage(hostTypes),
    beforeLlmCall: host ? (loopState) => host.beforeLlmCall(loopState) : undefined,
    onTextDelta: request.onTextDelta,
    waits: host?.loopWaits,
    approvals: state.approvals ?? (host === undefined ? state.services.approvals : undefined),
  });
  if (result.replan) throw new ReplanRequested(result.replan.reason, result.replan.blackboardUpdater);
  return result;
}
