import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { afterEach, describe, expect, it, vi } from "vitest";
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
      value: "Error: Tool execution timed out",
    });
    expect(aborts).toHaveLength(1);
    expect(String(aborts[0])).toContain("Tool 'hang' timed out after 30 ms");
    const end = events.find((event) => event.type === "tool-call-end");
    expect(end).toMatchObject({ result: { kind: "error", content: "Tool execution timed out" } });
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
      { type: "error-text", value: "Error: Tool execution timed out" },
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
      { type: "error-text", value: "Error: Tool execution timed out" },
      { type: "text", value: "quick done" },
      { type: "error-text", value: "Error: Tool execution timed out" },
    ]);
    // Both ran at once: each was aborted while the other was still running.
    expect(aborts).toHaveLength(2);
    expect(log.slice(0, 2)).toEqual(["start first", "start second"]);
  });

  describe("a parallel round's reference defaults (30 s a call, 60 s the round)", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const parallelRound = ScriptedModel.toolCalls([
      { name: "first" },
      { name: "quick" },
      { name: "patient" },
    ]);

    it("answers a call past 30 s, and one with its own longer limit past the round's 60 s", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const aborts: unknown[] = [];
      const model = ScriptedModel.of(parallelRound, ScriptedModel.text("done"));
      const running = runToolLoop({
        model,
        prompt,
        tools: [slow("first", aborts), quick, slow("patient", aborts, { toolTimeoutMs: 90_000, ms: 70_000 })],
        parallelToolCalls: true,
      });
      await vi.advanceTimersByTimeAsync(29_999);
      expect(aborts).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(aborts.map(String)).toEqual(["Error: Tool 'first' timed out after 30000 ms"]);
      await vi.advanceTimersByTimeAsync(30_000);
      await running;
      expect(model.requests[1]?.toolResults.map((part) => part.output)).toEqual([
        { type: "error-text", value: "Error: Tool execution timed out" },
        { type: "text", value: "quick done" },
        { type: "error-text", value: "Error: Tool execution timed out" },
      ]);
      expect(aborts.map(String)[1]).toBe("Error: Tool 'patient' timed out after 60000 ms");
    });

    it("gives way to the loop's toolTimeoutMs (no round limit) and leaves a single call unlimited", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const aborts: unknown[] = [];
      const model = ScriptedModel.of(parallelRound, ScriptedModel.text("done"));
      const tools = [
        slow("first", aborts, { ms: 45_000 }),
        quick,
        slow("patient", aborts, { toolTimeoutMs: 90_000, ms: 70_000 }),
      ];
      const limited = runToolLoop({ model, prompt, tools, parallelToolCalls: true, toolTimeoutMs: 50_000 });
      await vi.advanceTimersByTimeAsync(70_000);
      await limited;
      expect(model.requests[1]?.toolResults.map((part) => part.output)).toEqual([
        { type: "text", value: "first finished" },
        { type: "text", value: "quick done" },
        { type: "text", value: "patient finished" },
      ]);
      const single = ScriptedModel.of(ScriptedModel.toolCall("first"), ScriptedModel.text("done"));
      const alone = runToolLoop({ model: single, prompt, tools, parallelToolCalls: true });
      await vi.advanceTimersByTimeAsync(45_000);
      await alone;
      expect(single.requests[1]?.toolResults[0]?.output).toEqual({ type: "text", value: "first finished" });
      expect(aborts).toHaveLength(0);
    });
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
      value: "Error: Tool execution timed out",
    });
  });

  it("refuses a toolTimeoutMs that is not a positive number", async () => {
    expect(() => ToolMetadata.create({ toolTimeoutMs: 0 })).toThrow(ConfigurationError);
    await expect(
      runToolLoop({ model: ScriptedModel.of(), prompt, tools: [], toolTimeoutMs: -5 }),
    ).rejects.toThrow("The tool loop's toolTimeoutMs must be a positive number of milliseconds, got -5.");
  });
});
