import { describe, expect, it } from "vitest";
import { installRecordingTracer } from "../../test/support/recording-tracer.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { runToolLoop } from "./tool-loop.js";

const spans = installRecordingTracer();

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
    expect(spans.map((span) => span.name)).toEqual(["chat scripted", "execute_tool flaky", "chat scripted"]);
    expect(spans.every((span) => span.ended)).toBe(true);
    expect(spans[0]?.attributes).toMatchObject({
      "embabel.loop.id": result.loopId,
      "gen_ai.request.model": "scripted",
      "gen_ai.usage.input_tokens": 3,
      "gen_ai.usage.output_tokens": 1,
    });
    expect(spans[1]?.attributes).toMatchObject({ "gen_ai.tool.name": "flaky", "gen_ai.tool.call.id": "c1" });
    expect(spans[1]?.status?.message).toBe("boom");
  });

  it("ends a tool's span with an error status when the tool returns an error result", async () => {
    spans.length = 0;
    const refusing = Tool.create("refusing", "Refuses", () => ToolResult.error("not allowed"));
    const model = ScriptedModel.of(ScriptedModel.toolCall("refusing", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt: [], tools: [refusing] });
    const span = spans.find((candidate) => candidate.name === "execute_tool refusing");
    expect(span?.ended).toBe(true);
    expect(span?.status?.message).toBe("not allowed");
    expect(span?.status?.code).toBe(2);
  });
  it("nests each tool call's span under the span of the LLM call that asked for it", async () => {
    spans.length = 0;
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("first", {}),
      ScriptedModel.toolCall("second", {}),
      ScriptedModel.text("ok"),
    );
    const echo = (name: string) => Tool.create(name, name, () => ToolResult.text("done"));
    await runToolLoop({ model, prompt: [], tools: [echo("first"), echo("second")] });
    expect(
      spans.map((span) => [span.name, span.parent === undefined ? undefined : spans.indexOf(span.parent)]),
    ).toEqual([
      ["chat scripted", undefined],
      ["execute_tool first", 0],
      ["chat scripted", undefined],
      ["execute_tool second", 2],
      ["chat scripted", undefined],
    ]);
  });
});
