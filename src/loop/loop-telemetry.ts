import { type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ToolLoopEvent } from "./tool-loop.js";

// A proxy tracer: no-op (a non-recording span, no attribute work) until the
// application registers an OpenTelemetry SDK.
const tracer = trace.getTracer("embabel-ts");

/** Starts the span of one LLM call. */
export function startLlmSpan(loopId: string, iteration: number, modelId: string, provider: string): Span {
  const span = tracer.startSpan("embabel.llm.call");
  if (span.isRecording()) {
    span.setAttributes({
      "embabel.loop.id": loopId,
      "embabel.loop.iteration": iteration,
      "gen_ai.request.model": modelId,
      "gen_ai.system": provider,
    });
  }
  return span;
}

/** Starts the span of one tool call. */
export function startToolSpan(loopId: string, toolName: string, toolCallId: string): Span {
  const span = tracer.startSpan(`embabel.tool.call ${toolName}`);
  if (span.isRecording()) {
    span.setAttributes({
      "embabel.loop.id": loopId,
      "gen_ai.tool.name": toolName,
      "gen_ai.tool.call.id": toolCallId,
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
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  span.end();
}

/** Emits `event` to `onEvent`, if set; a throwing listener never breaks the loop. */
export function emit(
  onEvent: ((event: ToolLoopEvent) => void) | undefined,
  event: () => ToolLoopEvent,
): void {
  if (!onEvent) return;
  try {
    onEvent(event());
  } catch {
    // Listeners must not throw; the loop goes on regardless.
  }
}
