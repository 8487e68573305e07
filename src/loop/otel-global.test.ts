import { describe, expect, it } from "vitest";
import { activeContext, isSpanContextValid, setSpan, startOtelSpan, withContext } from "./otel-global.js";

// With an SDK registered, spans are covered by test/opentelemetry.test.ts; here none is.
describe("the OpenTelemetry API's global, with no SDK registered", () => {
  it("hands out a span that records nothing and has no valid context", () => {
    const span = startOtelSpan("embabel-ts", "chat m", undefined, activeContext());
    expect(span.isRecording()).toBe(false);
    expect(span.setAttributes({ a: 1 })).toBe(span);
    expect(isSpanContextValid(span.spanContext())).toBe(false);
  });

  it("keeps a span in a new context and runs a function under a context as a plain call", () => {
    const span = startOtelSpan("embabel-ts", "x", undefined, activeContext());
    const context = setSpan(activeContext(), span);
    expect(context.getValue(Symbol.for("OpenTelemetry Context Key SPAN"))).toBe(span);
    expect(activeContext().getValue(Symbol.for("OpenTelemetry Context Key SPAN"))).toBeUndefined();
    expect(withContext(context, () => 42)).toBe(42);
  });

  it("tells a valid span context from an invalid one", () => {
    const valid = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 };
    expect(isSpanContextValid(valid)).toBe(true);
    expect(isSpanContextValid({ ...valid, spanId: "0000000000000000" })).toBe(false);
    expect(isSpanContextValid({ ...valid, traceId: "xyz" })).toBe(false);
  });
});
