import { describe, expect, it } from "vitest";
import type { ToolLoopEvent } from "../loop/tool-loop.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import type { LlmInteractionCall, LlmInteractionHost } from "./llm-interaction-host.js";
import { PromptRunner } from "./prompt-runner.js";
import { ToolGroupRegistry } from "./tool-group-registry.js";

/** A fake agent process implementing the host interface, recording what it receives. */
class RecordingProcess implements AmbientProcess, LlmInteractionHost {
  readonly id = "process-1";
  readonly blackboard = { add: (value: unknown) => value };
  readonly events: ToolLoopEvent[] = [];
  readonly calls: LlmInteractionCall[] = [];
  readonly iterations: number[] = [];
  constructor(
    readonly toolCallContext: ToolCallContext = ToolCallContext.EMPTY,
    readonly signal?: AbortSignal,
  ) {}
  onLoopEvent(event: ToolLoopEvent): void {
    this.events.push(event);
  }
  beforeLlmCall(state: { iteration: number }): void {
    this.iterations.push(state.iteration);
  }
  recordLlmCall(call: LlmInteractionCall): void {
    this.calls.push(call);
  }
}

/** Runs one tool call and returns the context the tool saw (loop id removed). */
async function contextSeen(
  processContext: Record<string, unknown> | undefined,
  runnerContext: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  let seen: ToolCallContext | undefined;
  const probe = Tool.create("probe", "Reads its context", async (_input, context) => {
    seen = context;
    return ToolResult.text("ok");
  });
  const model = ScriptedModel.of(ScriptedModel.toolCall("probe"), ScriptedModel.text("done"));
  let runner = PromptRunner.create({
    resolveLlm: () => ({ model, name: "main", settings: {} }),
    toolGroups: new ToolGroupRegistry(),
  }).withTool(probe);
  if (runnerContext) runner = runner.withToolCallContext(runnerContext);
  const run = () => runner.generateText("go");
  if (processContext) await AmbientProcess.run(new RecordingProcess(ToolCallContext.of(processContext)), run);
  else await run();
  const record = seen?.toRecord() ?? {};
  delete record[ToolCallContext.LOOP_ID_KEY];
  return record;
}

function runner(model: ScriptedModel): PromptRunner {
  return PromptRunner.create({
    resolveLlm: () => ({ model, name: "main", settings: {} }),
    toolGroups: new ToolGroupRegistry(),
    costOf: ({ usage }) => usage.totalTokens / 1000,
  });
}

describe("PromptRunner inside an agent process", () => {
  describe("context merge (process vs interaction)", () => {
    it("passes the process context alone", async () => {
      expect(await contextSeen({ tenantId: "acme" }, undefined)).toEqual({ tenantId: "acme" });
    });

    it("passes the interaction context alone", async () => {
      expect(await contextSeen(undefined, { authToken: "xyz" })).toEqual({ authToken: "xyz" });
    });

    it("passes both when keys differ", async () => {
      expect(await contextSeen({ tenantId: "acme" }, { authToken: "xyz" })).toEqual({
        tenantId: "acme",
        authToken: "xyz",
      });
    });

    it("lets the interaction win on conflict", async () => {
      expect(await contextSeen({ tenantId: "acme" }, { tenantId: "override" })).toEqual({
        tenantId: "override",
      });
    });

    it("merges successive withToolCallContext calls, later winning", async () => {
      const model = ScriptedModel.of();
      const merged = runner(model)
        .withToolCallContext({ a: 1, b: 1 })
        .withToolCallContext(ToolCallContext.of({ b: 2 }));
      expect(merged.toolCallContext.toRecord()).toEqual({ a: 1, b: 2 });
    });

    it("gives the tool a loop id", async () => {
      let loopId: string | undefined;
      const probe = Tool.create("probe", "p", async (_input, context) => {
        loopId = context.loopId();
        return ToolResult.text("ok");
      });
      await runner(ScriptedModel.of(ScriptedModel.toolCall("probe"), ScriptedModel.text("done")))
        .withTool(probe)
        .generateText("x");
      expect(loopId).toMatch(/.+/);
    });
  });

  describe("reporting", () => {
    it("reports every loop event to the process", async () => {
      const process = new RecordingProcess();
      const model = ScriptedModel.of(ScriptedModel.toolCall("t"), ScriptedModel.text("done"));
      const t = Tool.create("t", "t", async () => ToolResult.text("ok"));
      await AmbientProcess.run(process, () => runner(model).withTool(t).generateText("x"));
      expect(process.events.map((event) => event.type)).toEqual([
        "llm-call-start",
        "llm-call-end",
        "tool-call-start",
        "tool-call-end",
        "llm-call-start",
        "llm-call-end",
      ]);
    });

    it("records each LLM call's usage, model and cost", async () => {
      const process = new RecordingProcess();
      const model = ScriptedModel.of(
        ScriptedModel.text("done", { usage: { inputTokens: 700, outputTokens: 300 } }),
      );
      await AmbientProcess.run(process, () => runner(model).generateText("x"));
      expect(process.calls).toHaveLength(1);
      expect(process.calls[0]).toMatchObject({
        usage: { inputTokens: 700, outputTokens: 300, totalTokens: 1000 },
        provider: "embabel-ts.scripted",
        modelId: "scripted",
        modelName: "main",
        costUsd: 1,
      });
    });

    it("asks the process before every LLM call", async () => {
      const process = new RecordingProcess();
      const model = ScriptedModel.of(ScriptedModel.toolCall("t"), ScriptedModel.text("done"));
      const t = Tool.create("t", "t", async () => ToolResult.text("ok"));
      await AmbientProcess.run(process, () => runner(model).withTool(t).generateText("x"));
      expect(process.iterations).toEqual([1, 2]);
    });

    it("ends the interaction with the error the process throws before an LLM call (budgets)", async () => {
      const process = new RecordingProcess();
      process.beforeLlmCall = (state) => {
        if (state.iteration > 1) throw new Error("Budget exceeded");
      };
      const model = ScriptedModel.of(ScriptedModel.toolCall("t"), ScriptedModel.text("never"));
      const t = Tool.create("t", "t", async () => ToolResult.text("ok"));
      await expect(
        AmbientProcess.run(process, () => runner(model).withTool(t).generateText("x")),
      ).rejects.toThrow("Budget exceeded");
      expect(model.requests).toHaveLength(1);
    });

    it("decorates the offered tools with the process's decorator", async () => {
      const process = new RecordingProcess() as RecordingProcess & { decorateTool(tool: Tool): Tool };
      process.decorateTool = (tool) => tool.withDescription(`[process] ${tool.definition.description}`);
      const model = ScriptedModel.of(ScriptedModel.text("done"));
      await AmbientProcess.run(process, () =>
        runner(model)
          .withTool(Tool.create("t", "does t", async () => ToolResult.text("ok")))
          .generateText("x"),
      );
      expect(model.requests[0]?.tools[0]?.description).toBe("[process] does t");
    });

    it("is aborted by the process's signal", async () => {
      const controller = new AbortController();
      controller.abort(new Error("process killed"));
      const process = new RecordingProcess(ToolCallContext.EMPTY, controller.signal);
      const model = ScriptedModel.of(ScriptedModel.text("never"));
      await expect(AmbientProcess.run(process, () => runner(model).generateText("x"))).rejects.toThrow(
        "process killed",
      );
      expect(model.requests).toHaveLength(0);
    });
  });

  describe("loop event types", () => {
    it("delivers only the events the host asks for, and still records every LLM call with its cost", async () => {
      const process = new RecordingProcess() as RecordingProcess & {
        loopEventTypes: ReadonlySet<ToolLoopEvent["type"]>;
      };
      process.loopEventTypes = new Set(["tool-call-end"]);
      const model = ScriptedModel.of(
        ScriptedModel.toolCall("t", {}, { usage: { inputTokens: 100, outputTokens: 20 } }),
        ScriptedModel.text("done", { usage: { inputTokens: 200, outputTokens: 10 } }),
      );
      await AmbientProcess.run(process, () =>
        runner(model)
          .withTool(Tool.create("t", "does t", async () => ToolResult.text("ok")))
          .generateText("x"),
      );
      expect(process.events.map((event) => event.type)).toEqual(["tool-call-end"]);
      expect(process.calls.map((call) => [call.usage.totalTokens, call.costUsd])).toEqual([
        [120, 0.12],
        [210, 0.21],
      ]);
    });

    it("gives llm-call-end, with its cost, to a host that asks for it", async () => {
      const process = new RecordingProcess() as RecordingProcess & {
        loopEventTypes: ReadonlySet<ToolLoopEvent["type"]>;
      };
      process.loopEventTypes = new Set(["llm-call-end"]);
      const model = ScriptedModel.of(
        ScriptedModel.text("done", { usage: { inputTokens: 100, outputTokens: 20 } }),
      );
      await AmbientProcess.run(process, () => runner(model).generateText("x"));
      expect(process.events).toEqual([expect.objectContaining({ type: "llm-call-end", costUsd: 0.12 })]);
    });

    it("gives a host without loopEventTypes every event", async () => {
      const process = new RecordingProcess();
      const model = ScriptedModel.of(ScriptedModel.toolCall("t"), ScriptedModel.text("done"));
      await AmbientProcess.run(process, () =>
        runner(model)
          .withTool(Tool.create("t", "does t", async () => ToolResult.text("ok")))
          .generateText("x"),
      );
      expect(process.events.map((event) => event.type)).toEqual([
        "llm-call-start",
        "llm-call-end",
        "tool-call-start",
        "tool-call-end",
        "llm-call-start",
        "llm-call-end",
      ]);
    });
  });
});
