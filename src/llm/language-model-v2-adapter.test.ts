import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV2StreamPart,
} from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { asLanguageModelV3 } from "./language-model-v2-adapter.js";
import { ModelRegistry } from "./model-registry.js";

// ai@6 ships no V2 mock, so this is a minimal AI SDK 5 style model: a tool call, then text.
function v2Model(calls: LanguageModelV2CallOptions[] = []): LanguageModelV2 {
  const usage = { inputTokens: 4, outputTokens: 2, totalTokens: 6 };
  return {
    specificationVersion: "v2",
    provider: "legacy",
    modelId: "legacy-1",
    supportedUrls: {},
    async doGenerate(options) {
      calls.push(options);
      const answered = options.prompt.some((message) => message.role === "tool");
      return answered
        ? { content: [{ type: "text", text: "done" }], finishReason: "stop", usage, warnings: [] }
        : {
            content: [{ type: "tool-call", toolCallId: "c1", toolName: "ping", input: "{}" }],
            finishReason: "tool-calls",
            usage,
            warnings: [],
          };
    },
    async doStream() {
      const parts: LanguageModelV2StreamPart[] = [
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "streamed" },
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: "unknown", usage },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

const ping = Tool.create("ping", "ping", () => ToolResult.text("pong"));
const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "go" }] }];

describe("asLanguageModelV3", () => {
  it("returns a V3 model unchanged", () => {
    const model = ScriptedModel.of();
    expect(asLanguageModelV3(model)).toBe(model);
  });

  it("runs the tool loop on a V2 model, converting usage", async () => {
    const calls: LanguageModelV2CallOptions[] = [];
    const result = await runToolLoop({ model: asLanguageModelV3(v2Model(calls)), prompt, tools: [ping] });
    expect(result.text).toBe("done");
    expect(result.usage).toEqual({ inputTokens: 8, outputTokens: 4, totalTokens: 12 });
    expect(calls[0]?.tools?.map((tool) => tool.name)).toEqual(["ping"]);
  });

  it("streams from a V2 model, converting the finish part", async () => {
    const deltas: string[] = [];
    const result = await runToolLoop({
      model: asLanguageModelV3(v2Model()),
      prompt,
      tools: [],
      onTextDelta: (delta) => deltas.push(delta),
    });
    expect(deltas).toEqual(["streamed"]);
    expect(result.usage.totalTokens).toBe(6);
  });

  it("lets the registry accept a V2 model", () => {
    const registry = ModelRegistry.create({ models: { legacy: v2Model() } });
    expect(registry.resolve().model.specificationVersion).toBe("v3");
  });
});
