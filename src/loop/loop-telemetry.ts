import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, Span } from "@opentelemetry/api";
import {
  activeContext,
  isSpanContextValid,
  SPAN_STATUS_ERROR,
  setSpan,
  startOtelSpan,
  withContext,
} from "./otel-global.js";
import type { ToolLoopEvent } from "./tool-loop-event.js";

// Spans are no-op (a non-recording span, no attribute work) until the
// application registers an OpenTelemetry SDK (see otel-global.ts).

/** Where the current async call chain sits: the tool call it runs in, and the span to nest under. */
interface TraceScope {
  /** The id of the tool call running (set inside a tool call, so a process it starts can name it). */
  readonly toolCallId?: string;
  /** Our key of that call (`<loopId>/<round>.<index>`): a loop started inside it keys its journal slot by it. */
  readonly callKey?: string;
  /** The OpenTelemetry context holding the innermost span of ours. */
  readonly spanContext?: Context;
}

// Our own store, so spans nest (process → action → LLM call → tool call →
// subagent process) even when the application registered no context manager.
const scopes = new AsyncLocalStorage<TraceScope>();

/** The context a new span of ours starts under: our innermost span, else the application's active context. */
export function parentContext(): Context {
  return scopes.getStore()?.spanContext ?? activeContext();
}

/** Starts a span named `name` under the current one of ours (or the active context). */
export function startSpan(name: string, parent: Context = parentContext()): Span {
  return startOtelSpan("embabel-ts", name, undefined, parent);
}

/** The context whose active span is `span`, for starting children of a span that may have ended; `undefined` for a no-op span. */
export function contextOf(span: Span): Context | undefined {
  return isSpanContextValid(span.spanContext()) ? setSpan(parentContext(), span) : undefined;
}

/** Runs `fn` with `span` as the parent of spans started inside it (a plain call when `span` is not recording). */
export function withSpan<T>(span: Span, fn: () => T): T {
  if (!span.isRecording()) return fn();
  const spanContext = setSpan(parentContext(), span);
  const current = scopes.getStore();
  const scope: TraceScope = current?.toolCallId === undefined ? { spanContext } : { ...current, spanContext };
  return scopes.run(scope, () => withContext(spanContext, fn));
}

/** Runs the tool call `toolCallId` (whose span is `span`): processes started inside it are nested under it. */
export function withinToolCall<T>(toolCallId: string, span: Span, fn: () => T, callKey?: string): T {
  const current = scopes.getStore();
  const keyed = callKey === undefined ? { toolCallId } : { toolCallId, callKey };
  if (!span.isRecording()) {
    const spanContext = current?.spanContext;
    return scopes.run(spanContext === undefined ? keyed : { ...keyed, spanContext }, fn);
  }
  const spanContext = setSpan(parentContext(), span);
  return scopes.run({ ...keyed, spanContext }, () => withContext(spanContext, fn));
}

/** Our key of the tool call the current async call chain runs in (see `withinToolCall`), if any. */
export function currentCallKey(): string | undefined {
  return scopes.getStore()?.callKey;
}

/** The id of the tool call the current async call chain runs in, if any. */
export function currentToolCallId(): string | undefined {
  return scopes.getStore()?.toolCallId;
}

/** Runs `fn` outside any tool call (a process's own actions are not inside the call that started it), keeping the span parent. */
export function outsideToolCall<T>(fn: () => T): T {
  const current = scopes.getStore();
  if (current?.toolCallId === undefined) return fn();
  return scopes.run(current.spanContext ? { spanContext: current.spanContext } : {}, fn);
}

/** Starts the span of one LLM call (GenAI semantic conventions: `chat <model>`). */
export function startLlmSpan(loopId: string, iteration: number, modelId: string, provider: string): Span {
  const span = startSpan(`chat ${modelId}`);
  if (span.isRecording()) {
    span.setAttributes({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": modelId,
      // `openai.chat` → `openai`: the convention's provider names are the vendor's.
      "gen_ai.provider.name": provider.split(".")[0] ?? provider,
      "embabel.llm.provider": provider,
      "embabel.loop.id": loopId,
      "embabel.loop.iteration": iteration,
    });
  }
  return span;
}

/** Starts the span of one tool call (GenAI semantic conventions: `execute_tool <name>`), under `parent` when given. */
export function startToolSpan(
  loopId: string,
  toolName: string,
  toolCallId: string,
  parent: Context | undefined,
): Span {
  const span = startSpan(`execute_tool ${toolName}`, parent ?? parentContext());
  if (span.isRecording()) {
    span.setAttributes({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": toolName,
      "gen_ai.tool.call.id": toolCallId,
      "gen_ai.tool.type": "function",
      "embabel.loop.id": loopId,
    });
  }
  return span;
}

/** Ends a span, recording `error` when given. */
export function endSpan(
  span: Span,
  error?: unknown,
  attributes?: Record<string, number | string | boolean>,
): void {
  if (span.isRecording()) {
    if (attributes) span.setAttributes(attributes);
    if (error !== undefined) {
      span.setAttribute("error.type", error instanceof Error ? error.name : "_OTHER");
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({
        code: SPAN_STATUS_ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  span.end();
}

/** A loop event listener. */
export type LoopEventListener = (event: ToolLoopEvent) => void;

/** `onEvent` when it wants events of `type` (every type when `types` is absent), else `undefined`: events nobody receives are never built. */
export function listenerFor(
  onEvent: LoopEventListener | undefined,
  types: ReadonlySet<ToolLoopEvent["type"]> | undefined,
  type: ToolLoopEvent["type"],
): LoopEventListener | undefined {
  return onEvent !== undefined && (types === undefined || types.has(type)) ? onEvent : undefined;
}

/** Emits `event` to `onEvent`; a throwing listener never breaks the loop. Callers build the event only when a listener wants it (see {@link listenerFor}). */
export function emit(onEvent: LoopEventListener, event: ToolLoopEvent): void {
  try {
    onEvent(event);
  } catch {
    // Listeners must not throw; the loop goes on regardless.
  }
}
