import { describe, expect, it } from "vitest";
import { LlmOptions } from "../llm/llm-options.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import type { OperationContext } from "../platform/operation-context.js";
import { ProcessOptions } from "../platform/process-options.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStepInit } from "../testing/scripted-step.js";
import { llmTool } from "../tool/llm-tool.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { SimpleAgenticTool } from "./simple-agentic-tool.js";

const add = Tool.create("add", "Adds two numbers", () => ToolResult.text("5"));
const multiply = Tool.create("multiply", "Multiplies two numbers", () => ToolResult.text("6"));
const concert = Tool.create("create_concert", "Creates a concert", () =>
  ToolResult.withArtifact("Concert created", { title: "Mozart night" }),
);
const performances = Tool.create("find_performances", "Finds performances", () =>
  ToolResult.withArtifact("2 found", [{ id: "p1" }, { id: "p2" }]),
);

function setUp(steps: ScriptedStepInit[], options: { processOptions?: ProcessOptions } = {}) {
  const model = new ScriptedModel(steps);
  const smart = new ScriptedModel([ScriptedModel.text("smart answer")], { modelId: "smart-model" });
  const platform = AgentPlatform.create({ models: { main: model, smart }, roles: { default: "main" } });
  const run = (body: (context: OperationContext) => Promise<unknown>) =>
    platform.runInProcess(body, options.processOptions ? { processOptions: options.processOptions } : {});
  return { model, smart, platform, run };
}

/** Runs an outer interaction offering `tool`; returns the process and the outer LLM's text. */
async function callThrough(
  tool: Tool,
  steps: ScriptedStepInit[],
  options: { processOptions?: ProcessOptions; runnerContext?: Record<string, unknown> } = {},
) {
  const fixture = setUp(steps, options);
  let text: string | undefined;
  const process = await fixture.run(async (context) => {
    let runner = context.ai().withTool(tool);
    if (options.runnerContext) runner = runner.withToolCallContext(options.runnerContext);
    text = await runner.generateText("What is 5 + 3 * 2?");
  });
  return { ...fixture, process, text };
}

function textOf(process: AgentProcess): string {
  return `${process.status} ${process.statusReason ?? ""}`;
}

function toolResultOf(model: ScriptedModel, request: number): unknown {
  return model.requests[request]?.toolResults[0]?.output;
}

describe("SimpleAgenticTool", () => {
  it("is a tool named and described as created, with the parameters added", () => {
    const tool = SimpleAgenticTool.create("math-orchestrator", "Orchestrates math operations")
      .withTools(add)
      .withParameter(Param.string("expression", "Math expression to evaluate"))
      .withParameter(Param.integer("precision", "Decimal places for result", { required: false }));
    expect(tool.definition.name).toBe("math-orchestrator");
    expect(tool.definition.description).toBe("Orchestrates math operations");
    expect(JSON.parse(tool.definition.inputSchema.toJsonSchema())).toMatchObject({
      properties: { expression: { type: "string" }, precision: { type: "integer" } },
      required: ["expression"],
    });
    expect(tool.maxIterations).toBe(20);
    expect(tool.innerTools).toEqual([add]);
  });

  it("is copy-on-write", () => {
    const base = SimpleAgenticTool.create("base", "Base orchestrator").withTools(add);
    const more = base.withTools(multiply);
    const llm = base.withLlm(LlmOptions.withModel("smart"));
    expect(base.innerTools).toEqual([add]);
    expect(more.innerTools).toEqual([add, multiply]);
    expect(more).toBeInstanceOf(SimpleAgenticTool);
    expect(llm.llm?.model).toBe("smart");
    expect(base.llm).toBeUndefined();
    expect(base.withParameter(Param.string("q", "Query")).definition.inputSchema.parameters).toHaveLength(1);
    expect(base.definition.inputSchema.parameters).toHaveLength(0);
  });

  it("returns the same instance for an object without @llmTool methods, and adds the tools of one with", () => {
    class Nothing {}
    class Search {
      @llmTool({ description: "Search the web" })
      search(): string {
        return "results";
      }
    }
    const base = SimpleAgenticTool.create("assistant", "Multi-capability assistant");
    expect(base.withToolObject(new Nothing())).toBe(base);
    expect(
      base.withToolObjects(new Nothing(), new Search()).innerTools.map((t) => t.definition.name),
    ).toEqual(["search"]);
  });

  it("answers 'No tools available for SimpleAgenticTool' without tools or chaining", async () => {
    const result = await SimpleAgenticTool.create("empty", "Does nothing").call("{}");
    expect(result).toMatchObject({ kind: "error", content: "No tools available for SimpleAgenticTool" });
  });

  it("answers 'No AgentProcess context available' called directly outside a process", async () => {
    const result = await SimpleAgenticTool.create("math", "Math").withTools(add).call("{}");
    expect(result).toMatchObject({ kind: "error", content: "No AgentProcess context available" });
  });

  it("works from platform.ai() outside any agent: it runs in a short-lived process of its own", async () => {
    const tool = SimpleAgenticTool.create("math", "Orchestrates math operations").withTools(add);
    const model = new ScriptedModel([
      ScriptedModel.toolCall("math", { expression: "5 + 6" }),
      ScriptedModel.toolCall("add", { a: 5, b: 6 }),
      ScriptedModel.text("11"),
      ScriptedModel.text("The answer is 11."),
    ]);
    const platform = AgentPlatform.create({ models: { main: model } });
    const text = await platform.ai().withTool(tool).generateText("What is 5 + 6?");
    expect(text).toBe("The answer is 11.");
    expect(model.requests[1]?.toolNames).toEqual(["add"]);
    const output = model.requests[3]?.toolResults[0]?.output;
    expect(output).toEqual({ type: "text", value: "11" });
  });

  it("tells the model when the short-lived process fails, and the outer loop goes on", async () => {
    const tool = SimpleAgenticTool.create("math", "Math").withTools(add);
    const model = new ScriptedModel([
      ScriptedModel.toolCall("math", { expression: "1 + 1" }),
      ScriptedModel.error(new Error("provider down")),
      ScriptedModel.text("Sorry, the math tool failed."),
    ]);
    const platform = AgentPlatform.create({ models: { main: model } });
    expect(await platform.ai().withTool(tool).generateText("1 + 1?")).toBe("Sorry, the math tool failed.");
    const output = model.requests[2]?.toolResults[0]?.output;
    expect(output).toEqual({
      type: "text",
      value: "WARNING: Tool 'math' failed with exception: provider down",
    });
  });

  it("runs a nested loop: default system prompt, the input JSON as user message, the sub-tools offered", async () => {
    const tool = SimpleAgenticTool.create("math", "Orchestrates math operations").withTools(add, multiply);
    const { model, process, text } = await callThrough(tool, [
      ScriptedModel.toolCall("math", { expression: "5 + 3 * 2" }),
      ScriptedModel.toolCall("multiply", { a: 3, b: 2 }),
      ScriptedModel.toolCall("add", { a: 5, b: 6 }),
      ScriptedModel.text("11"),
      ScriptedModel.text("The answer is 11."),
    ]);
    expect(textOf(process)).toBe("completed ");
    expect(text).toBe("The answer is 11.");
    expect(model.toolNamesPerRequest).toEqual([
      ["math"],
      ["add", "multiply"],
      ["add", "multiply"],
      ["add", "multiply"],
      ["math"],
    ]);
    const nested = model.requests[1];
    expect(nested?.prompt[0]).toEqual({
      role: "system",
      content:
        "You are an intelligent agent that can use tools to help you complete tasks.\nUse the provided tools to perform the following task:\nOrchestrates math operations",
    });
    expect(nested?.prompt[1]).toEqual({
      role: "user",
      content: [{ type: "text", text: '{"expression":"5 + 3 * 2"}' }],
    });
    expect(toolResultOf(model, 4)).toEqual({ type: "text", value: "11" });
  });

  it("returns one artifact as is and several as a list in call order", async () => {
    const tool = SimpleAgenticTool.create("planner", "Plans").withTools(concert, performances);
    const one = await callThrough(tool, [
      ScriptedModel.toolCall("planner", {}),
      ScriptedModel.toolCall("create_concert", {}),
      ScriptedModel.text("done"),
      ScriptedModel.text("ok"),
    ]);
    const oneResult = one.process.toolStats.get("planner");
    expect(oneResult?.calls).toBe(1);

    const results: ToolResult[] = [];
    const spy = Tool.create("spy", "Calls the planner", async (input, context) => {
      const result = await tool.call(input, context);
      results.push(result);
      return result;
    });
    await callThrough(spy, [
      ScriptedModel.toolCall("spy", {}),
      ScriptedModel.toolCall("create_concert", {}),
      ScriptedModel.text("just one"),
      ScriptedModel.toolCall("spy", {}),
      ScriptedModel.toolCall("find_performances", {}),
      ScriptedModel.toolCall("create_concert", {}),
      ScriptedModel.text("several"),
      ScriptedModel.toolCall("spy", {}),
      ScriptedModel.text("none"),
      ScriptedModel.text("ok"),
    ]);
    expect(results[0]).toEqual(ToolResult.withArtifact("just one", { title: "Mozart night" }));
    expect(results[1]).toEqual(
      ToolResult.withArtifact("several", [{ id: "p1" }, { id: "p2" }, { title: "Mozart night" }]),
    );
    expect(results[2]).toEqual(ToolResult.text("none"));
  });

  it("captures a nested agentic tool's artifacts only with withCaptureNestedArtifacts(true)", async () => {
    const inner = SimpleAgenticTool.create("find", "Finds performances").withTools(performances);
    const steps = (): ScriptedStepInit[] => [
      ScriptedModel.toolCall("spy", {}),
      ScriptedModel.toolCall("find", {}),
      ScriptedModel.toolCall("find_performances", {}),
      ScriptedModel.text("found two"),
      ScriptedModel.toolCall("create_concert", {}),
      ScriptedModel.text("assembled"),
      ScriptedModel.text("ok"),
    ];
    const outerResults: ToolResult[] = [];
    const spying = (tool: SimpleAgenticTool) =>
      Tool.create("spy", "Assembles", async (input, context) => {
        const result = await tool.call(input, context);
        outerResults.push(result);
        return result;
      });
    const assembler = SimpleAgenticTool.create("assembleConcert", "Assemble a concert program").withTools(
      inner,
      concert,
    );
    await callThrough(spying(assembler), steps());
    await callThrough(spying(assembler.withCaptureNestedArtifacts(true)), steps());
    expect(outerResults[0]).toEqual(ToolResult.withArtifact("assembled", { title: "Mozart night" }));
    expect(outerResults[1]).toEqual(
      ToolResult.withArtifact("assembled", [{ id: "p1" }, { id: "p2" }, { title: "Mozart night" }]),
    );
  });

  it("passes the process, interaction and call context to every sub-tool, with the nested loop's id", async () => {
    const seen: ToolCallContext[] = [];
    const probe = Tool.create("probe", "Reads the context", (_input, context) => {
      seen.push(context);
      return ToolResult.text("seen");
    });
    const tool = SimpleAgenticTool.create("agent", "Probes").withTools(probe);
    let outerLoopId: string | undefined;
    const wrapper = Tool.create("outer", "Calls the agent", (input, context) => {
      outerLoopId = context.loopId();
      return tool.call(input, context.with("call", "c-1"));
    });
    await callThrough(
      wrapper,
      [
        ScriptedModel.toolCall("outer", {}),
        ScriptedModel.toolCall("probe", {}),
        ScriptedModel.text("inner done"),
        ScriptedModel.text("done"),
      ],
      {
        processOptions: ProcessOptions.DEFAULT.withToolCallContext({ tenant: "acme", user: "process" }),
        runnerContext: { user: "interaction" },
      },
    );
    const context = seen[0];
    expect(context?.get("tenant")).toBe("acme");
    expect(context?.get("user")).toBe("interaction");
    expect(context?.get("call")).toBe("c-1");
    expect(context?.loopId()).toBeDefined();
    expect(context?.loopId()).not.toBe(outerLoopId);
  });

  it("counts the nested loop's usage in the process", async () => {
    const tool = SimpleAgenticTool.create("math", "Math").withTools(add);
    const usage = { usage: { inputTokens: 10, outputTokens: 5 } };
    const { process } = await callThrough(tool, [
      ScriptedModel.toolCall("math", {}, usage),
      ScriptedModel.toolCall("add", {}, usage),
      ScriptedModel.text("5", usage),
      ScriptedModel.text("done", usage),
    ]);
    expect(process.llmInvocations).toBe(4);
    expect(process.usage.totalTokens).toBe(60);
  });

  it("is stopped by the process's token budget inside the nested loop", async () => {
    const tool = SimpleAgenticTool.create("math", "Math").withTools(add);
    const usage = { usage: { inputTokens: 60, outputTokens: 0 } };
    const { model, process } = await callThrough(
      tool,
      [
        ScriptedModel.toolCall("math", {}, usage),
        ScriptedModel.toolCall("add", {}, usage),
        ScriptedModel.text("5", usage),
        ScriptedModel.text("done", usage),
      ],
      { processOptions: ProcessOptions.DEFAULT.withBudget({ tokens: 100 }) },
    );
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("Max tokens of 100 reached");
    expect(model.requests).toHaveLength(2);
  });

  it("uses the LLM chosen with withLlm for the nested loop", async () => {
    const tool = SimpleAgenticTool.create("math", "Math").withTools(add).withLlm({ model: "smart" });
    const { model, smart } = await callThrough(tool, [
      ScriptedModel.toolCall("math", {}),
      ScriptedModel.text("done"),
    ]);
    expect(smart.requests).toHaveLength(1);
    expect(toolResultOf(model, 1)).toEqual({ type: "text", value: "smart answer" });
  });

  it("builds a dynamic system prompt from the operation context and the input", async () => {
    const tool = SimpleAgenticTool.create("math", "Math")
      .withTools(add)
      .withSystemPrompt(
        (context, input) =>
          `Process requests for context ${context.processOptions.contextId}. Task: ${input}`,
      );
    const { model } = await callThrough(
      tool,
      [ScriptedModel.toolCall("math", { q: 1 }), ScriptedModel.text("5"), ScriptedModel.text("done")],
      { processOptions: ProcessOptions.DEFAULT.withContextId("ctx-9") },
    );
    expect(model.requests[1]?.prompt[0]).toEqual({
      role: "system",
      content: 'Process requests for context ctx-9. Task: {"q":1}',
    });
  });

  it("discovers the tools of any returned object with withToolChainingFromAny", async () => {
    class Order {
      @llmTool({ description: "Cancel the order" })
      cancel(): string {
        return "Order cancelled";
      }
    }
    const getOrder = Tool.create("get_order", "Gets an order", () =>
      ToolResult.withArtifact("Order 7", new Order()),
    );
    const tool = SimpleAgenticTool.create("explorer", "Explore and manipulate objects")
      .withTools(getOrder)
      .withToolChainingFromAny();
    const { model } = await callThrough(tool, [
      ScriptedModel.toolCall("explorer", {}),
      ScriptedModel.toolCall("get_order", {}),
      ScriptedModel.toolCall("cancel", {}),
      ScriptedModel.text("cancelled it"),
      ScriptedModel.text("done"),
    ]);
    expect(model.toolNamesPerRequest.slice(1, 4)).toEqual([
      ["get_order"],
      ["get_order", "cancel"],
      ["get_order", "cancel"],
    ]);
    expect(toolResultOf(model, 3)).toEqual({ type: "text", value: "Order cancelled" });
  });

  it("answers reaching maxIterations in-band, naming the limit, and the outer loop goes on", async () => {
    const tool = SimpleAgenticTool.create("math", "Math").withTools(add).withMaxIterations(2);
    const { model, process, text } = await callThrough(tool, [
      ScriptedModel.toolCall("math", {}),
      ScriptedModel.toolCall("add", {}),
      ScriptedModel.toolCall("add", {}),
      ScriptedModel.text("I could not compute it."),
    ]);
    expect(process.status).toBe("completed");
    expect(text).toBe("I could not compute it.");
    expect(toolResultOf(model, 3)).toEqual({
      type: "error-text",
      value:
        "Error: math: Tool loop exceeded maximum iterations (2). This may indicate a loop in tool calls or an overly complex task.",
    });
  });

  it("rejects a maxIterations that is not a positive integer", () => {
    expect(() => SimpleAgenticTool.create("m", "M").withMaxIterations(0)).toThrow(/positive integer/);
  });

  it("tells the nested LLM about a throwing sub-tool and goes on", async () => {
    const broken = Tool.create("broken", "Fails", () => {
      throw new Error("disk full");
    });
    const tool = SimpleAgenticTool.create("agent", "Works").withTools(broken, add);
    const { model, text } = await callThrough(tool, [
      ScriptedModel.toolCall("agent", {}),
      ScriptedModel.toolCall("broken", {}),
      ScriptedModel.toolCall("add", {}),
      ScriptedModel.text("recovered"),
      ScriptedModel.text("done"),
    ]);
    expect(toolResultOf(model, 2)).toEqual({
      type: "text",
      value: "WARNING: Tool 'broken' failed with exception: disk full",
    });
    expect(toolResultOf(model, 4)).toEqual({ type: "text", value: "recovered" });
    expect(text).toBe("done");
  });

  it("is aborted with the process: killing it mid-call stops the nested loop", async () => {
    const fixture = setUp([
      ScriptedModel.toolCall("agent", {}),
      ScriptedModel.toolCall("slow", {}),
      ScriptedModel.text("never"),
      ScriptedModel.text("never"),
    ]);
    let started: () => void = () => {};
    const begun = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = Tool.create("slow", "Waits for the abort", (_input, _context, options) => {
      started();
      return new Promise<ToolResult>((_resolve, reject) => {
        options?.signal?.addEventListener("abort", () => reject(options.signal?.reason), { once: true });
      });
    });
    const tool = SimpleAgenticTool.create("agent", "Works").withTools(slow);
    let current: AgentProcess | undefined;
    const running = fixture.run(async (context) => {
      current = context.process;
      await context.ai().withTool(tool).generateText("go");
    });
    await begun;
    current?.kill("stop");
    const process = await running;
    expect(process.status).toBe("killed");
    expect(fixture.model.requests).toHaveLength(2);
  });
});
