import { type Attributes, type Span, type SpanStatus, type Tracer, trace } from "@opentelemetry/api";

/** A span as the recording tracer saw it. */
export interface RecordedSpan {
  readonly name: string;
  readonly attributes: Attributes;
  status?: SpanStatus;
  ended: boolean;
}

function recordingSpan(spans: RecordedSpan[], name: string): Span {
  const record: RecordedSpan = { name, attributes: {}, ended: false };
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
  return span;
}

/**
 * Registers, through the real `@opentelemetry/api` global, a tracer that
 * records every span it starts (no OpenTelemetry SDK is installed here), and
 * returns the list it records into; a test empties it before it acts.
 */
export function installRecordingTracer(): RecordedSpan[] {
  const spans: RecordedSpan[] = [];
  const tracer = { startSpan: (name: string) => recordingSpan(spans, name) } as unknown as Tracer;
  if (!trace.setGlobalTracerProvider({ getTracer: () => tracer })) {
    throw new Error("A global OpenTelemetry tracer provider was already registered in this test file.");
  }
  return spans;
}
