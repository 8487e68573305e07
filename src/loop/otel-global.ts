// The OpenTelemetry API as the application registered it, read from the API's
// own global (`Symbol.for("opentelemetry.js.api.1")`, where
// `trace.setGlobalTracerProvider` and `context.setGlobalContextManager` put
// their providers) instead of importing @opentelemetry/api: a program without
// an OpenTelemetry SDK then bundles none of the API, and one with an SDK gets
// the same spans, nested the same way (the span key is the API's own
// `Symbol.for`). Types still come from the API package.
import type { Context, Span, SpanContext, SpanOptions, Tracer } from "@opentelemetry/api";

interface OtelGlobal {
  readonly trace?: { getTracer(name: string): Tracer };
  readonly context?: { active(): Context; with<T>(context: Context, fn: () => T): T };
}

const GLOBAL = Symbol.for("opentelemetry.js.api.1");
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");
const INVALID_TRACE_ID = "00000000000000000000000000000000";
const INVALID_SPAN_ID = "0000000000000000";

function registered(): OtelGlobal | undefined {
  return (globalThis as { [GLOBAL]?: OtelGlobal })[GLOBAL];
}

/** A context holding `values` (the API's root context when empty). */
class BaseContext implements Context {
  constructor(private readonly values: ReadonlyMap<symbol, unknown> = new Map()) {}
  getValue(key: symbol): unknown {
    return this.values.get(key);
  }
  setValue(key: symbol, value: unknown): Context {
    return new BaseContext(new Map(this.values).set(key, value));
  }
  deleteValue(key: symbol): Context {
    const values = new Map(this.values);
    values.delete(key);
    return new BaseContext(values);
  }
}

const ROOT_CONTEXT: Context = new BaseContext();
const INVALID_SPAN_CONTEXT: SpanContext = {
  traceId: INVALID_TRACE_ID,
  spanId: INVALID_SPAN_ID,
  traceFlags: 0,
};

/** The span of a program without an SDK: records nothing. */
const NON_RECORDING: Span = {
  spanContext: () => INVALID_SPAN_CONTEXT,
  setAttribute: () => NON_RECORDING,
  setAttributes: () => NON_RECORDING,
  addEvent: () => NON_RECORDING,
  addLink: () => NON_RECORDING,
  addLinks: () => NON_RECORDING,
  setStatus: () => NON_RECORDING,
  updateName: () => NON_RECORDING,
  end: () => undefined,
  isRecording: () => false,
  recordException: () => undefined,
};

/** `trace.getTracer(name).startSpan(name, options, parent)`, or a non-recording span when no SDK is registered. */
export function startOtelSpan(
  tracerName: string,
  name: string,
  options: SpanOptions | undefined,
  parent: Context,
): Span {
  const trace = registered()?.trace;
  return trace ? trace.getTracer(tracerName).startSpan(name, options, parent) : NON_RECORDING;
}

/** `context.active()`. */
export function activeContext(): Context {
  return registered()?.context?.active() ?? ROOT_CONTEXT;
}

/** `context.with(context, fn)`. */
export function withContext<T>(context: Context, fn: () => T): T {
  const manager = registered()?.context;
  return manager ? manager.with(context, fn) : fn();
}

/** `trace.setSpan(context, span)`. */
export function setSpan(context: Context, span: Span): Context {
  return context.setValue(SPAN_KEY, span);
}

/** `isSpanContextValid(spanContext)`. */
export function isSpanContextValid(spanContext: SpanContext): boolean {
  return (
    /^[0-9a-f]{32}$/i.test(spanContext.traceId) &&
    spanContext.traceId !== INVALID_TRACE_ID &&
    /^[0-9a-f]{16}$/i.test(spanContext.spanId) &&
    spanContext.spanId !== INVALID_SPAN_ID
  );
}

/** `SpanStatusCode.ERROR`. */
export const SPAN_STATUS_ERROR = 2;
