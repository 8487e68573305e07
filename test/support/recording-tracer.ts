import {
  type Attributes,
  type Context,
  type Span,
  type SpanStatus,
  type Tracer,
  trace,
} from "@opentelemetry/api";

/** The record of each span the recording tracer started. */
const records = new WeakMap<Span, RecordedSpan>();

/** A span as the recording tracer saw it. */
export interface RecordedSpan {
  readonly name: string;
  readonly attributes: Attributes;
  status?: SpanStatus;
  ended: boolean;
  /** The recorded span the context it was started in holds, if any. */
  readonly parent?: RecordedSpan;
}

function recordingSpan(spans: RecordedSpan[], name: string, parent: RecordedSpan | undefined): Span {
  const record: RecordedSpan =
    parent === undefined
      ? { name, attributes: {}, ended: false }
      : { name, attributes: {}, ended: false, parent };
  spans.push(record);
  const span = {
    spanContext: () => ({
      traceId: "00000000000000000000000000000001",
      spanId: "0000000000000001",
      traceFlags: 1,
    }),
    setAttribute: (key: string, value: unknown) => {
      (record.attributes as Record<string, unknown>)[key] = value;
      return span;
    },
    setAttributes: (attributes: Attributes) => {
      Object.assign(record.attributes, attributes);
      return span;
    },
    addEvent: () => span,
    addLink: () => span,
    addLinks: () => span,
    setStatus: (status: SpanStatus) => {
      record.status = status;
      return span;
    },
    updateName: () => span,
    end: () => {
      record.ended = true;
    },
    isRecording: () => true,
    recordException: () => {},
  } as unknown as Span;
  records.set(span, record);
  return span;
}

/**
 * Registers, through the real `@opentelemetry/api` global, a tracer that
 * records every span it starts (no OpenTelemetry SDK is installed here), and
 * returns the list it records into; a test empties it before it acts.
 */
export function installRecordingTracer(): RecordedSpan[] {
  const spans: RecordedSpan[] = [];
  const tracer = {
    startSpan: (name: string, _options: unknown, context?: Context) => {
      const parentSpan = context === undefined ? undefined : trace.getSpan(context);
      return recordingSpan(spans, name, parentSpan === undefined ? undefined : records.get(parentSpan));
    },
  } as unknown as Tracer;
  if (!trace.setGlobalTracerProvider({ getTracer: () => tracer })) {
    throw new Error("A global OpenTelemetry tracer provider was already registered in this test file.");
  }
  return spans;
}
