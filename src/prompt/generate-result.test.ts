import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentPlatform } from "../platform/agent-platform.js";
import { ProcessOptions } from "../platform/process-options.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";

// `platform.ai()...generate(prompt)`: the answer with its steps, tool calls, usage and cost,
// beside `generateText`'s bare string, through the public API.

const add = Tool.fromFunction({
  name: "add",
  description: "Adds two numbers",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

function script() {
  return new ScriptedModel(
    [
      ScriptedModel.toolCall(
        "add",
        { a: 2, b: 3 },
        { id: "c1", usage: { inputTokens: 100, outputTokens: 10 } },
      ),
      ScriptedModel.text("2 + 3 = 5", { usage: { inputTokens: 150, outputTokens: 5 } }),
    ],
    { modelId: "gpt-4.1-mini" },
  );
}

describe("PromptRunner.generate", () => {
  it("returns the text with one step per LLM call, every tool call with its result, usage and cost", async () => {
    const platform = AgentPlatform.create({ models: { default: script() } });
    const result = await platform.ai().withTool(add).generate("What is 2 + 3?");
    expect(result.text).toBe("2 + 3 = 5");
    expect(
      result.steps.map((step) => ({ text: step.text, calls: step.toolCalls.length, modelId: step.modelId })),
    ).toEqual([
      { text: "", calls: 1, modelId: "gpt-4.1-mini" },
      { text: "2 + 3 = 5", calls: 0, modelId: "gpt-4.1-mini" },
    ]);
    expect(result.toolCalls).toEqual([
      { toolCallId: "c1", toolName: "add", input: '{"a":2,"b":3}', result: ToolResult.text("5") },
    ]);
    expect(result.usage).toEqual({ inputTokens: 250, outputTokens: 15, totalTokens: 265 });
    expect(result.steps[0]?.usage).toEqual({ inputTokens: 100, outputTokens: 10, totalTokens: 110 });
    // gpt-4.1-mini has a known price: each step is priced, and the total is their sum.
    expect(result.steps.every((step) => (step.costUsd ?? 0) > 0)).toBe(true);
    expect(result.costUsd).toBeCloseTo((result.steps[0]?.costUsd ?? 0) + (result.steps[1]?.costUsd ?? 0), 12);
  });

  it("gives the same text as generateText, and no cost for a model without a known price", async () => {
    const unpriced = () =>
      new ScriptedModel([ScriptedModel.text("hello", { usage: { inputTokens: 3, outputTokens: 1 } })], {
        modelId: "my-local-model",
      });
    const text = await AgentPlatform.create({ models: { default: unpriced() } })
      .ai()
      .generateText("hi");
    const result = await AgentPlatform.create({ models: { default: unpriced() } })
      .ai()
      .generate("hi");
    expect(result).toEqual({
      text,
      steps: [
        {
          text: "hello",
          toolCalls: [],
          modelId: "my-local-model",
          usage: expect.any(Object),
          costUsd: undefined,
        },
      ],
      toolCalls: [],
      usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
      costUsd: undefined,
    });
  });

  it("inside an agent process, still reports to the process (its usage and cost) as generateText does", async () => {
    const platform = AgentPlatform.create({ models: { default: script() } });
    const seen: string[] = [];
    const process = await platform.runInProcess(
      async (context) => (await context.ai().withTool(add).generate("What is 2 + 3?")).toolCalls.length,
      { processOptions: ProcessOptions.DEFAULT.withListener((event) => seen.push(event.type)) },
    );
    expect(process.result).toBe(1);
    expect(process.usage.totalTokens).toBe(265);
    expect(process.costUsd).toBeGreaterThan(0);
    expect(seen).toEqual(expect.arrayContaining(["llm-call-end", "tool-call-end"]));
  });
});
