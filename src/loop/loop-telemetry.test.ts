import { type Attributes, type Span, type SpanStatus, type Tracer, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { runToolLoop } from "./tool-loop.js";

// No OpenTelemetry SDK is installed here; this recording tracer stands in for
// one, registered through the real @opentelemetry/api global.
interface RecordedSpan {
  readonly name: string;
  readonly attributes: Attributes;
  status?: SpanStatus;
  ended: boolean;
}

const spans: RecordedSpan[] = [];

function recordingSpan(name: string): Span {
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

const tracer = { startSpan: (name: string) => recordingSpan(name) } as unknown as Tracer;
trace.setGlobalTracerProvider({ getTracer: () => tracer });

describe("OpenTelemetry spans", () => {
  it("opens and ends one span per LLM call and per tool call, with attributes", async () => {
    spans.length = 0;
    const failing = Tool.create("flaky", "flaky", () => {
      throw new Error("boom");
    });
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("flaky", {}, { id: "c1", usage: { inputTokens: 3, outputTokens: 1 } }),
      ScriptedModel.text("ok"),
    );
    const result = await runToolLoop({ model, prompt: [], tools: [failing] });
    expect(spans.map((span) => span.name)).toEqual([
      "embabel.llm.call",
      "embabel.tool.call flaky",
      "embabel.llm.call",
    ]);
    expect(spans.every((span) => span.ended)).toBe(true);
    expect(spans[0]?.attributes).toMatchObject({
      "embabel.loop.id": result.loopId,
      "gen_ai.request.model": "scripted",
      "gen_ai.usage.input_tokens": 3,
    });
    expect(spans[1]?.attributes).toMatchObject({ "gen_ai.tool.name": "flaky", "gen_ai.tool.call.id": "c1" });
    expect(spans[1]?.status?.message).toBe("boom");
  });
});
