// One round of tool calls (runToolBatch), seen through the loop: what runs,
// what the next round offers, and when a round stops.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { ChainedToolInjectionStrategy } from "./chained-tool-injection-strategy.js";
import { runToolLoop, type ToolLoopEvent } from "./tool-loop.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Go" }] }];

/** A tool that records each run in `ran`. */
function counted(name: string, ran: string[]): Tool {
  return Tool.create(name, `The ${name} tool`, () => {
    ran.push(name);
    return ToolResult.text(`${name} done`);
  });
}

describe("runToolBatch", () => {
  it.each([
    ["one after the other", false],
    ["in parallel", true],
  ])("runs no call of a round %s when the signal is aborted as the reply arrives", async (_, parallel) => {
    const controller = new AbortController();
    const ran: string[] = [];
    const model = ScriptedModel.of(() => {
      controller.abort(new Error("user cancelled"));
      return ScriptedModel.toolCalls([{ name: "a" }, { name: "b" }]);
    });
    const run = runToolLoop({
      model,
      prompt,
      tools: [counted("a", ran), counted("b", ran)],
      signal: controller.signal,
      parallelToolCalls: parallel,
    });
    await expect(run).rejects.toThrow("user cancelled");
    expect(ran).toEqual([]);
  });

  it("unfolds a facade called in a parallel round: the next round offers its tools", async () => {
    const ran: string[] = [];
    const events: ToolLoopEvent[] = [];
    const facade = UnfoldingTool.of("admin", "Admin tools", [counted("purge", ran)]);
    const model = ScriptedModel.of(
      ScriptedModel.toolCalls([{ name: "admin" }, { name: "log" }]),
      ScriptedModel.text("ok"),
    );
    const result = await runToolLoop({
      model,
      prompt,
      tools: [facade, counted("log", ran)],
      parallelToolCalls: true,
      onEvent: (event) => events.push(event),
      eventTypes: new Set(["tools-changed"]),
    });
    expect(model.requests[1]?.toolNames).toEqual(["admin", "log", "purge", "admin_context"]);
    expect(result.injectedTools.map((tool) => tool.definition.name)).toEqual([
      "admin",
      "purge",
      "admin_context",
    ]);
    expect(events).toMatchObject([{ type: "tools-changed", added: ["admin", "purge", "admin_context"] }]);
  });

  it("unfolds a facade the model called with blank arguments, read as {}", async () => {
    const seen: string[] = [];
    const facade = UnfoldingTool.of("admin", "Admin tools", [counted("purge", [])]);
    const model = ScriptedModel.of(ScriptedModel.toolCall("admin", "  "), ScriptedModel.text("ok"));
    await runToolLoop({
      model,
      prompt,
      tools: [facade],
      injectionStrategy: ChainedToolInjectionStrategy.withUnfolding({
        evaluate: (context) => void seen.push(context.lastToolCall.toolInput),
      }),
    });
    expect(seen).toEqual(["{}"]);
    expect(model.requests[1]?.toolNames).toEqual(["admin", "purge", "admin_context"]);
  });
});
