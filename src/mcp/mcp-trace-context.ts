import type { Context, Span, SpanContext } from "@opentelemetry/api";
import { parentContext } from "../loop/loop-telemetry.js";
import { isSpanContextValid, SPAN_STATUS_ERROR, setSpan, startOtelSpan } from "../loop/otel-global.js";

const SPAN_KIND_SERVER = 1;
const SPAN_KIND_CLIENT = 2;
const TRACE_FLAG_SAMPLED = 1;

// OpenTelemetry across an MCP hop (SEP-414: `traceparent`/`tracestate` in a
// request's `_meta`, W3C Trace Context format), spans named per the GenAI MCP
// semantic conventions: `{mcp.method.name} {gen_ai.tool.name}`. No-op (a
// non-recording span, nothing added to `_meta`) until the application
// registers an OpenTelemetry SDK.

/** W3C `traceparent`, version 00, lower-case hex; the all-zero ids are invalid. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function toolSpanAttributes(toolName: string): Record<string, string> {
  return {
    "mcp.method.name": "tools/call",
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": toolName,
  };
}

/** Starts the client span of a `tools/call` to `server`, under the current span of ours. */
export function startMcpClientSpan(toolName: string, server: string): Span {
  return startOtelSpan(
    "embabel-ts",
    `tools/call ${toolName}`,
    { kind: SPAN_KIND_CLIENT, attributes: { ...toolSpanAttributes(toolName), "mcp.server.name": server } },
    parentContext(),
  );
}

/** `meta` with the `traceparent` of `span` (unchanged for a non-recording span). */
export function withTraceparent(
  meta: Readonly<Record<string, unknown>> | undefined,
  span: Span,
): Readonly<Record<string, unknown>> | undefined {
  const spanContext = span.spanContext();
  if (!span.isRecording() || !isSpanContextValid(spanContext)) return meta;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, "0");
  const traceparent = `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
  const tracestate = spanContext.traceState?.serialize();
  return { ...meta, traceparent, ...(tracestate ? { tracestate } : {}) };
}

/** Ends `span` with the outcome of the call: an `isError` result or a failure marks it as an error. */
export function endMcpSpan(span: Span, outcome: { isError?: boolean } | { error: unknown }): void {
  if ("error" in outcome) {
    span.setStatus({
      code: SPAN_STATUS_ERROR,
      message: outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
    });
  } else if (outcome.isError) span.setStatus({ code: SPAN_STATUS_ERROR });
  span.end();
}

/**
 * The context a served request continues: the remote span its `_meta`
 * `traceparent` names (text from the client: a malformed one is ignored),
 * else the current one of ours.
 */
export function servedParentContext(meta: Readonly<Record<string, unknown>> | undefined): Context {
  const parent = parentContext();
  const value = meta?.traceparent;
  const match = typeof value === "string" ? TRACEPARENT.exec(value) : null;
  if (!match) return parent;
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  const remote = {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TRACE_FLAG_SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(remote) ? setSpan(parent, remoteSpan(remote)) : parent;
}

/** Starts the server span of a served `tools/call`, continuing the client's trace when `_meta` carries one. */
export function startMcpServerSpan(
  toolName: string,
  meta: Readonly<Record<string, unknown>> | undefined,
): Span {
  return startOtelSpan(
    "embabel-ts",
    `tools/call ${toolName}`,
    { kind: SPAN_KIND_SERVER, attributes: toolSpanAttributes(toolName) },
    servedParentContext(meta),
  );
}

/** `trace.wrapSpanContext(spanContext)`: a non-recording span carrying a remote parent's ids. */
function remoteSpan(spanContext: SpanContext): Span {
  const span: Span = {
    spanContext: () => spanContext,
    setAttribute: () => span,
    setAttributes: () => span,
    addEvent: () => span,
    addLink: () => span,
    addLinks: () => span,
    setStatus: () => span,
    updateName: () => span,
    end: () => undefined,
    isRecording: () => false,
    recordException: () => undefined,
  };
  return span;
}
