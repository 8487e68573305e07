import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { AgentProcess } from "./agent-process.js";
import { ListOutputChannel } from "./output-channel.js";
import { ProcessOptions } from "./process-options.js";
import { Verbosity } from "./verbosity.js";

function call(costUsd: number | undefined, tokens = 10) {
  return {
    provider: "p",
    modelId: "m",
    modelName: "main",
    durationMs: 1,
    costUsd,
    usage: { inputTokens: tokens, outputTokens: 0, totalTokens: tokens },
  };
}

describe("AgentProcess", () => {
  it("is undefined as current() outside any process and set inside runWithin", () => {
    const { process } = AgentProcess.launch();
    expect(AgentProcess.current()).toBeUndefined();
    expect(process.runWithin(() => AgentProcess.current())).toBe(process);
    expect(process.runWithin(() => AmbientProcess.current())).toBe(process);
  });

  it("lets a tool add an object to the current process's blackboard with addObject", async () => {
    class Customer {
      constructor(readonly id: number) {}
    }
    class CustomerTools {
      @llmTool({ description: "Binds a customer", input: z.object({ id: z.number() }) })
      bindCustomer({ id }: { id: number }): string {
        const process = AgentProcess.current();
        if (!process) return "No agent process: Unable to bind customer";
        process.addObject(new Customer(id));
        return "Customer bound to blackboard";
      }
    }
    const [tool] = Tool.fromInstance(new CustomerTools());
    const { process } = AgentProcess.launch();
    const result = await process.runWithin(() => tool?.call('{"id": 7}'));
    expect(result?.content).toBe("Customer bound to blackboard");
    expect(process.blackboard.last(Customer)).toEqual(new Customer(7));
    expect((await tool?.call('{"id": 8}'))?.content).toBe("No agent process: Unable to bind customer");
  });

  it("ignores an ambient process that is not an AgentProcess", () => {
    const foreign = { id: "x", blackboard: { add: () => undefined } };
    expect(AmbientProcess.run(foreign, () => AgentProcess.current())).toBeUndefined();
    expect(AgentProcess.isAgentProcess(foreign)).toBe(false);
  });

  it("starts running with an empty blackboard and default options", () => {
    const { process } = AgentProcess.launch();
    expect(process.status).toBe("running");
    expect(process.finished).toBe(false);
    expect(process.blackboard.objects).toEqual([]);
    expect(process.processOptions).toBe(ProcessOptions.DEFAULT);
    expect(process.parentId).toBeUndefined();
    expect(process.runningTimeMs).toBeGreaterThanOrEqual(0);
  });

  it("accumulates usage, cost, models and invocations from recorded LLM calls", () => {
    const { process } = AgentProcess.launch();
    process.recordLlmCall(call(0.5, 100));
    process.recordLlmCall({ ...call(undefined, 50), modelId: "other" });
    expect(process.usage.totalTokens).toBe(150);
    expect(process.costUsd).toBe(0.5);
    expect(process.llmInvocations).toBe(2);
    expect(process.modelsUsed.map((model) => model.modelId)).toEqual(["m", "other"]);
  });

  it("refuses the next LLM call once the cost budget is exceeded, with the reference's message", () => {
    const { process } = AgentProcess.launch({
      processOptions: ProcessOptions.DEFAULT.withBudget({ cost: 0.01 }),
    });
    process.recordLlmCall(call(0.02));
    expect(() => process.beforeLlmCall({ iteration: 1, usage: call(0).usage })).toThrow(BudgetExceededError);
    expect(() => process.checkLlmBudget()).toThrow("Exceeded budget of $0.0100: cost=$0.0200");
  });

  it("refuses the next LLM call once killed", () => {
    const { process } = AgentProcess.launch();
    process.kill("enough");
    expect(process.signal.aborted).toBe(true);
    expect(() => process.beforeLlmCall({ iteration: 0, usage: call(0).usage })).toThrow("enough");
  });

  it("follows an external signal that is already aborted", () => {
    const { process } = AgentProcess.launch({ signal: AbortSignal.abort(new Error("early")) });
    expect(process.signal.aborted).toBe(true);
  });

  it("counts calls and failures per tool from loop events", () => {
    const { process } = AgentProcess.launch();
    const end = (toolName: string, kind: "text" | "error") => ({
      type: "tool-call-end" as const,
      loopId: "l",
      toolCallId: "c",
      toolName,
      input: "{}",
      result: { kind, content: "x" } as never,
      durationMs: 2,
    });
    process.onLoopEvent(end("a", "text"));
    process.onLoopEvent(end("a", "error"));
    process.onLoopEvent(end("b", "text"));
    expect(process.toolStats.get("a")).toEqual({ calls: 2, failures: 1, totalDurationMs: 4 });
    expect(process.toolStats.get("b")?.calls).toBe(1);
  });

  it("hands out tool stats that later calls do not change", () => {
    const { process } = AgentProcess.launch();
    const end = {
      type: "tool-call-end" as const,
      loopId: "l",
      toolCallId: "c",
      toolName: "a",
      input: "{}",
      result: { kind: "text", content: "x" } as never,
      durationMs: 2,
    };
    process.onLoopEvent(end);
    const before = process.toolStats.get("a");
    const checkpoint = process.checkpoint();
    process.onLoopEvent(end);
    expect(before).toEqual({ calls: 1, failures: 0, totalDurationMs: 2 });
    expect(checkpoint.toolStats).toEqual([["a", { calls: 1, failures: 0, totalDurationMs: 2 }]]);
    expect(process.toolStats.get("a")).toEqual({ calls: 2, failures: 0, totalDurationMs: 4 });
  });

  it("derives child options that inherit verbosity, listeners, channel and context over a spawned blackboard", () => {
    const listener = () => {};
    const channel = new ListOutputChannel();
    const verbosity = new Verbosity().withShowPrompts(true).withShowLlmResponses(true);
    const options = ProcessOptions.DEFAULT.withVerbosity(verbosity)
      .withListener(listener)
      .withOutputChannel(channel)
      .withToolCallContext({ tenantId: "acme" })
      .withBudget({ actions: 3 });
    const { process } = AgentProcess.launch({ processOptions: options });
    process.blackboard.add("parent object");
    const child = process.childProcessOptions();
    expect(child.verbosity).toBe(verbosity);
    expect(child.listeners).toEqual([listener]);
    expect(child.outputChannel).toBe(channel);
    expect(child.toolCallContext.get("tenantId")).toBe("acme");
    expect(child.budget.actions).toBe(50);
    expect(child.blackboard?.parent).toBe(process.blackboard);
    expect(child.blackboard?.objects).toEqual(["parent object"]);
  });

  it("keeps quiet verbosity quiet in child options", () => {
    const { process } = AgentProcess.launch();
    expect(process.childProcessOptions().verbosity).toBe(Verbosity.DEFAULT);
  });

  it("records a termination request for the platform to act on", () => {
    const { process, control } = AgentProcess.launch();
    process.terminateAgent("user left");
    process.terminateAgent("second reason ignored");
    expect(control.terminateRequest).toBe("user left");
  });
});
