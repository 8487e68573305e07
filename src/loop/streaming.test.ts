import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { runToolLoop } from "./tool-loop.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];
const add = Tool.create("add", "Adds", () => ToolResult.text("3"));

const finish = (unified: "tool-calls" | "stop"): LanguageModelV3StreamPart => ({
  type: "finish",
  finishReason: { unified, raw: undefined },
  usage: {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  },
});

describe("streaming with onTextDelta", () => {
  it("streams text deltas through doStream and returns the full text", async () => {
    const deltas: string[] = [];
    const model = ScriptedModel.of(
      ScriptedModel.text("The answer is 3", { textChunks: ["The ", "answer ", "is 3"] }),
    );
    const result = await runToolLoop({
      model,
      prompt,
      tools: [],
      onTextDelta: (delta) => deltas.push(delta),
    });
    expect(deltas).toEqual(["The ", "answer ", "is 3"]);
    expect(result.text).toBe("The answer is 3");
    expect(model.requests[0]?.mode).toBe("stream");
  });

  it("executes tool calls that arrive in a stream", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("add", { a: 1, b: 2 }), ScriptedModel.text("3"));
    const result = await runToolLoop({ model, prompt, tools: [add], onTextDelta: () => {} });
    expect(result.text).toBe("3");
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({ type: "text", value: "3" });
  });

  it("reads usage from the finish part", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("x", { usage: { inputTokens: 4, outputTokens: 1 } }));
    const result = await runToolLoop({ model, prompt, tools: [], onTextDelta: () => {} });
    expect(result.usage).toEqual({ inputTokens: 4, outputTokens: 1, totalTokens: 5 });
  });

  it("works with MockLanguageModelV3 streams", async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        {
          stream: simulateReadableStream<LanguageModelV3StreamPart>({
            chunks: [
              { type: "tool-call", toolCallId: "c1", toolName: "add", input: "{}" },
              finish("tool-calls"),
            ],
          }),
        },
        {
          stream: simulateReadableStream<LanguageModelV3StreamPart>({
            chunks: [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "three" },
              { type: "text-end", id: "t" },
              finish("stop"),
            ],
          }),
        },
      ],
    });
    const deltas: string[] = [];
    const result = await runToolLoop({
      model,
      prompt,
      tools: [add],
      onTextDelta: (delta) => deltas.push(delta),
    });
    expect(result.text).toBe("three");
    expect(deltas).toEqual(["three"]);
  });

  it("keeps a provider-executed tool result from the stream next to its call", async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        {
          stream: simulateReadableStream<LanguageModelV3StreamPart>({
            chunks: [
              {
                type: "tool-call",
                toolCallId: "p1",
                toolName: "web_search",
                input: "{}",
                providerExecuted: true,
              },
              { type: "tool-result", toolCallId: "p1", toolName: "web_search", result: "found" },
              { type: "tool-call", toolCallId: "c1", toolName: "add", input: "{}" },
              finish("tool-calls"),
            ],
          }),
        },
        {
          stream: simulateReadableStream<LanguageModelV3StreamPart>({
            chunks: [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "found it" },
              finish("stop"),
            ],
          }),
        },
      ],
    });
    await runToolLoop({ model, prompt, tools: [add], onTextDelta: () => {} });
    expect(model.doStreamCalls[1]?.prompt[1]).toEqual({
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "p1", toolName: "web_search", input: {}, providerExecuted: true },
        {
          type: "tool-result",
          toolCallId: "p1",
          toolName: "web_search",
          output: { type: "text", value: "found" },
        },
        { type: "tool-call", toolCallId: "c1", toolName: "add", input: {} },
      ],
    });
  });

  it("fails with the error of an error part", async () => {
    const model = new MockLanguageModelV3({
      doStream: {
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [{ type: "error", error: new Error("overloaded") }],
        }),
      },
    });
    await expect(runToolLoop({ model, prompt, tools: [], onTextDelta: () => {} })).rejects.toThrow(
      "overloaded",
    );
  });
});
