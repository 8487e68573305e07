import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { runToolLoop } from "./tool-loop.js";

// How a loop stops early: its AbortSignal, and a beforeLlmCall hook (budgets).

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

function echo(name: string): Tool {
  return Tool.create(name, `The ${name} tool`, () => ToolResult.text(`${name} done`));
}

describe("runToolLoop cancellation", () => {
  it("passes the signal to the model and to each tool call", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const spy = Tool.create("spy", "spy", (_input, _context, options) => {
      toolSignal = options.signal;
      return ToolResult.text("ok");
    });
    const model = ScriptedModel.of(ScriptedModel.toolCall("spy"), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [spy], signal: controller.signal });
    expect(toolSignal).toBe(controller.signal);
    expect(model.requests[0]?.options.abortSignal).toBe(controller.signal);
  });

  it("stops between steps when the signal is aborted", async () => {
    const controller = new AbortController();
    const aborting = Tool.create("abort", "abort", () => {
      controller.abort(new Error("user cancelled"));
      return ToolResult.text("ok");
    });
    const model = ScriptedModel.of(ScriptedModel.toolCall("abort"), ScriptedModel.text("never"));
    await expect(
      runToolLoop({ model, prompt, tools: [aborting], signal: controller.signal }),
    ).rejects.toThrow("user cancelled");
    expect(model.requests).toHaveLength(1);
  });

  it("runs no further tool of the same reply once the signal is aborted", async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const aborting = Tool.create("first", "first", () => {
      ran.push("first");
      controller.abort(new Error("user cancelled"));
      return ToolResult.text("ok");
    });
    const second = Tool.create("second", "second", () => {
      ran.push("second");
      return ToolResult.text("ok");
    });
    const model = ScriptedModel.of(ScriptedModel.toolCalls([{ name: "first" }, { name: "second" }]));
    await expect(
      runToolLoop({ model, prompt, tools: [aborting, second], signal: controller.signal }),
    ).rejects.toThrow("user cancelled");
    expect(ran).toEqual(["first"]);
  });

  it.each([
    ["", undefined],
    [", not the iteration limit, on the last iteration", 1],
  ])("rethrows the abort reason%s when a tool fails because of the abort", async (_, maxIterations) => {
    const controller = new AbortController();
    const aborting = Tool.create("abort", "abort", () => {
      controller.abort(new Error("cancelled mid-call"));
      throw new Error("fetch aborted");
    });
    const model = ScriptedModel.of(ScriptedModel.toolCall("abort"), ScriptedModel.text("never"));
    await expect(
      runToolLoop({ model, prompt, tools: [aborting], signal: controller.signal, maxIterations }),
    ).rejects.toThrow("cancelled mid-call");
  });

  it("aborts a model call in flight", async () => {
    const controller = new AbortController();
    const model = ScriptedModel.of(ScriptedModel.text("slow", { delayMs: 5_000 }));
    setTimeout(() => controller.abort(new Error("too slow")), 10);
    await expect(runToolLoop({ model, prompt, tools: [], signal: controller.signal })).rejects.toThrow(
      "too slow",
    );
  });

  it("ends the loop with the error thrown by beforeLlmCall", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("a", {}, { usage: { inputTokens: 100, outputTokens: 0 } }),
      ScriptedModel.text("never"),
    );
    const seen: number[] = [];
    const run = runToolLoop({
      model,
      prompt,
      tools: [echo("a")],
      beforeLlmCall: ({ iteration, usage }) => {
        seen.push(iteration);
        if (usage.totalTokens >= 100) throw new Error("budget exhausted");
      },
    });
    await expect(run).rejects.toThrow("budget exhausted");
    expect(seen).toEqual([1, 2]);
    expect(model.requests).toHaveLength(1);
  });
});
