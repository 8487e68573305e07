import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ScriptedModel } from "../testing/index.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { runToolLoop, type ToolLoopEvent } from "./tool-loop.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

/** A tool that finishes only when its signal aborts (recording the reason), or after `ms`. */
function slow(
  name: string,
  aborts: unknown[],
  options: { toolTimeoutMs?: number; ms?: number; log?: string[] } = {},
): Tool {
  const metadata = ToolMetadata.create(options.toolTimeoutMs ? { toolTimeoutMs: options.toolTimeoutMs } : {});
  return Tool.create(name, `The ${name} tool`, metadata, (_input, _context, callOptions) => {
    options.log?.push(`start ${name}`);
    return new Promise<ToolResult>((resolve) => {
      const timer = setTimeout(() => resolve(ToolResult.text(`${name} finished`)), options.ms ?? 60_000);
      callOptions?.signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        aborts.push(callOptions.signal?.reason);
        options.log?.push(`abort ${name}`);
        resolve(ToolResult.text("too late"));
      });
    });
  });
}

const quick = Tool.create("quick", "Quick", () => ToolResult.text("quick done"));

describe("tool timeouts", () => {
  it("answers a tool past its metadata's toolTimeoutMs in-band, aborts its signal, and goes on", async () => {
    const aborts: unknown[] = [];
    const events: ToolLoopEvent[] = [];
    const model = ScriptedModel.of(ScriptedModel.toolCall("hang"), ScriptedModel.text("Sorry, it hung."));
    const result = await runToolLoop({
      model,
      prompt,
      tools: [slow("hang", aborts, { toolTimeoutMs: 30 })],
      onEvent: (event) => events.push(event),
    });
    expect(result.text).toBe("Sorry, it hung.");
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "error-text",
      value: "Tool 'hang' timed out after 30 ms",
    });
    expect(aborts).toHaveLength(1);
    expect(String(aborts[0])).toContain("Tool 'hang' timed out after 30 ms");
    const end = events.find((event) => event.type === "tool-call-end");
    expect(end).toMatchObject({ result: { kind: "error", content: "Tool 'hang' timed out after 30 ms" } });
  });

  it("applies the loop's toolTimeoutMs to tools without their own, which wins", async () => {
    const aborts: unknown[] = [];
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("hang"),
      ScriptedModel.toolCall("patient"),
      ScriptedModel.toolCall("quick"),
      ScriptedModel.text("done"),
    );
    await runToolLoop({
      model,
      prompt,
      tools: [slow("hang", aborts), slow("patient", aborts, { toolTimeoutMs: 1_000, ms: 80 }), quick],
      toolTimeoutMs: 25,
    });
    const outputs = model.requests.slice(1).map((request) => request.toolResults[0]?.output);
    expect(outputs).toEqual([
      { type: "error-text", value: "Tool 'hang' timed out after 25 ms" },
      { type: "text", value: "patient finished" },
      { type: "text", value: "quick done" },
    ]);
    expect(aborts).toHaveLength(1);
  });

  it("times out each call of a parallel batch on its own, keeping call order", async () => {
    const log: string[] = [];
    const aborts: unknown[] = [];
    const model = ScriptedModel.of(
      ScriptedModel.toolCalls([{ name: "first" }, { name: "quick" }, { name: "second" }]),
      ScriptedModel.text("done"),
    );
    const result = await runToolLoop({
      model,
      prompt,
      tools: [slow("first", aborts, { log }), quick, slow("second", aborts, { log })],
      toolTimeoutMs: 40,
      parallelToolCalls: true,
    });
    expect(result.text).toBe("done");
    expect(model.requests[1]?.toolResults.map((part) => part.output)).toEqual([
      { type: "error-text", value: "Tool 'first' timed out after 40 ms" },
      { type: "text", value: "quick done" },
      { type: "error-text", value: "Tool 'second' timed out after 40 ms" },
    ]);
    // Both ran at once: each was aborted while the other was still running.
    expect(aborts).toHaveLength(2);
    expect(log.slice(0, 2)).toEqual(["start first", "start second"]);
  });

  it("reads toolTimeoutMs from @llmTool", async () => {
    class Slow {
      @llmTool({ description: "Waits", toolTimeoutMs: 20, input: z.object({}) })
      wait(_input: object): Promise<string> {
        return new Promise(() => {});
      }
    }
    const [tool] = Tool.fromInstance(new Slow());
    expect(tool?.metadata.toolTimeoutMs).toBe(20);
    const model = ScriptedModel.of(ScriptedModel.toolCall("wait"), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: tool ? [tool] : [] });
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "error-text",
      value: "Tool 'wait' timed out after 20 ms",
    });
  });

  it("refuses a toolTimeoutMs that is not a positive number", async () => {
    expect(() => ToolMetadata.create({ toolTimeoutMs: 0 })).toThrow(ConfigurationError);
    await expect(
      runToolLoop({ model: ScriptedModel.of(), prompt, tools: [], toolTimeoutMs: -5 }),
    ).rejects.toThrow("The tool loop's toolTimeoutMs must be a positive number of milliseconds, got -5.");
  });
});
