import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { ProcessOptions } from "../platform/process-options.js";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStepInit } from "../testing/scripted-step.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { StateMachineTool } from "./state-machine-tool.js";

enum OrderState {
  DRAFT = "DRAFT",
  CONFIRMED = "CONFIRMED",
  SHIPPED = "SHIPPED",
  DELIVERED = "DELIVERED",
}

enum Phase {
  Start,
  End,
}

function tool(name: string, result: ToolResult = ToolResult.text(`${name} done`)): Tool {
  return Tool.create(name, `The ${name} tool`, () => result);
}

const addItem = tool("addItem");
const confirm = tool("confirm", ToolResult.withArtifact("confirmed", { order: 1 }));
const ship = tool("ship");
const deliver = tool("deliver");
const review = tool("review");
const status = tool("status");

const orderProcessor = StateMachineTool.create("orderProcessor", "Process orders", OrderState)
  .withInitialState(OrderState.DRAFT)
  .inState(OrderState.DRAFT)
  .withTool(addItem)
  .withTool(confirm)
  .transitionsTo(OrderState.CONFIRMED)
  .inState(OrderState.CONFIRMED)
  .withTool(ship)
  .transitionsTo(OrderState.SHIPPED)
  .inState(OrderState.SHIPPED)
  .withTool(deliver)
  .transitionsTo(OrderState.DELIVERED)
  .inState(OrderState.DELIVERED)
  .withTool(review)
  .build()
  .withGlobalTools(status);

async function run(machine: Tool, nestedSteps: ScriptedStepInit[]): Promise<ScriptedModel> {
  const model = new ScriptedModel([
    ScriptedModel.toolCall(machine.definition.name, { orderId: "o-1" }),
    ...nestedSteps,
    ScriptedModel.text("outer done"),
  ]);
  const platform = AgentPlatform.create({ models: { main: model } });
  const process = await platform.runInProcess(async (context) => {
    await context.ai().withTool(machine).generateText("Process order o-1");
  });
  if (process.status !== "completed") throw new Error(`${process.status}: ${process.statusReason}`);
  return model;
}

function resultText(model: ScriptedModel, request: number): string | undefined {
  const output = model.requests[request]?.toolResults[0]?.output;
  return output && (output.type === "text" || output.type === "error-text") ? output.value : undefined;
}

describe("StateMachineTool", () => {
  it("offers every tool at once, described with its state, transition, or 'all states'", async () => {
    const model = await run(orderProcessor, [ScriptedModel.text("inner done")]);
    const nested = model.requests[1];
    expect(nested?.toolNames).toEqual(["addItem", "confirm", "ship", "deliver", "review", "status"]);
    const described = Object.fromEntries((nested?.tools ?? []).map((t) => [t.name, t.description]));
    expect(described.addItem).toBe("The addItem tool\n\n[Available in state: DRAFT]");
    expect(described.confirm).toBe(
      "The confirm tool\n\n[Available in state: DRAFT] [Transitions to: CONFIRMED]",
    );
    expect(described.status).toBe("The status tool\n\n[Available in all states]");
  });

  it("uses the reference's system prompt, fixed at the initial state", async () => {
    const model = await run(orderProcessor, [
      ScriptedModel.toolCall("confirm", {}),
      ScriptedModel.text("inner done"),
    ]);
    const expected = [
      "You are an intelligent agent that can use tools to complete tasks.",
      "",
      "Current state: DRAFT",
      "",
      "Task: Process orders",
      "",
      "Use the available tools to complete the task. Some tools are only available",
      "in certain states. If a tool indicates it's not available in the current state,",
      "you may need to use other tools first to transition to the appropriate state.",
    ].join("\n");
    expect(model.requests[1]?.prompt[0]).toEqual({ role: "system", content: expected });
    expect(model.requests[2]?.prompt[0]).toEqual({ role: "system", content: expected });
  });

  it("refuses a tool in the wrong state, naming both states", async () => {
    const model = await run(orderProcessor, [
      ScriptedModel.toolCall("ship", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 2)).toBe(
      "This tool is not available in the current state (DRAFT). It is only available in state: CONFIRMED",
    );
  });

  it("transitions after a successful call and tells the model the new state", async () => {
    const model = await run(orderProcessor, [
      ScriptedModel.toolCall("confirm", {}),
      ScriptedModel.toolCall("ship", {}),
      ScriptedModel.toolCall("addItem", {}),
      ScriptedModel.toolCall("status", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 2)).toBe("confirmed\n\n[Current state: CONFIRMED]");
    expect(resultText(model, 3)).toBe("ship done\n\n[Current state: SHIPPED]");
    expect(resultText(model, 4)).toBe(
      "This tool is not available in the current state (SHIPPED). It is only available in state: DRAFT",
    );
    expect(resultText(model, 5)).toBe("status done");
  });

  it("passes the call's context and returnDirect through its state and global wrappers", async () => {
    const seen: unknown[] = [];
    const reading = (name: string) =>
      Tool.create(name, name, ToolMetadata.create({ returnDirect: true }), (_input, context) => {
        seen.push(context.get("tenant"));
        return ToolResult.text(name);
      });
    const machine = StateMachineTool.create("m", "M", ["A"])
      .withInitialState("A")
      .inState("A")
      .withTool(reading("local"))
      .build()
      .withGlobalTool(reading("global"));
    const tools = machine.innerTools;
    expect(tools.map((t) => t.metadata.returnDirect)).toEqual([true, true]);
    const model = new ScriptedModel([
      ScriptedModel.toolCall("m", {}),
      ScriptedModel.toolCalls([
        { name: "local", args: {} },
        { name: "global", args: {} },
      ]),
      ScriptedModel.text("outer"),
    ]);
    const platform = AgentPlatform.create({ models: { main: model } });
    await platform.runInProcess(
      async (context) => {
        await context.ai().withTool(machine).generateText("go");
      },
      { processOptions: ProcessOptions.DEFAULT.withToolCallContext({ tenant: "acme" }) },
    );
    expect(seen).toEqual(["acme", "acme"]);
    // The nested loop ended on the returnDirect tools, without another LLM round.
    expect(model.requests).toHaveLength(3);
    expect(resultText(model, 2)).toBe("global");
  });

  it("does not transition when the tool's result is an error", async () => {
    const failing = StateMachineTool.create("m", "M", ["A", "B"] as const)
      .withInitialState("A")
      .inState("A")
      .withTool(tool("go", ToolResult.error("cannot go")))
      .transitionsTo("B")
      .inState("B")
      .withTool(tool("after"))
      .build();
    const model = await run(failing, [
      ScriptedModel.toolCall("go", {}),
      ScriptedModel.toolCall("after", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 2)).toBe("Error: cannot go");
    expect(resultText(model, 3)).toBe(
      "This tool is not available in the current state (A). It is only available in state: B",
    );
  });

  it("starts elsewhere with startingIn, leaving the original as it was", async () => {
    const resumed = orderProcessor.startingIn(OrderState.CONFIRMED);
    expect(orderProcessor.initialState).toBe(OrderState.DRAFT);
    const model = await run(resumed, [ScriptedModel.toolCall("ship", {}), ScriptedModel.text("inner done")]);
    expect(resultText(model, 2)).toBe("ship done\n\n[Current state: SHIPPED]");
    expect(model.requests[1]?.prompt[0]).toMatchObject({
      content: expect.stringContaining("Current state: CONFIRMED"),
    });
  });

  it("gives a state-aware system prompt the initial state", async () => {
    const machine = orderProcessor.withStateAwareSystemPrompt(
      (_context, input, state) => `Order ${input} is ${state}.`,
    );
    const model = await run(machine, [ScriptedModel.text("inner done")]);
    expect(model.requests[1]?.prompt[0]).toEqual({
      role: "system",
      content: 'Order {"orderId":"o-1"} is DRAFT.',
    });
  });

  it("names numeric enum states by their member names", async () => {
    const machine = StateMachineTool.create("phases", "Phases", Phase)
      .withInitialState(Phase.Start)
      .inState(Phase.End)
      .withTool(tool("finish"))
      .build();
    expect(machine.states).toEqual([Phase.Start, Phase.End]);
    const model = await run(machine, [
      ScriptedModel.toolCall("finish", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 2)).toBe(
      "This tool is not available in the current state (Start). It is only available in state: End",
    );
  });

  it("answers the configuration errors in-band", async () => {
    const noInitial = StateMachineTool.create("m", "M", OrderState)
      .inState(OrderState.DRAFT)
      .withTool(addItem)
      .build();
    expect(await noInitial.call("{}")).toMatchObject({
      kind: "error",
      content: "No initial state configured for StateMachineTool",
    });
    const noTools = StateMachineTool.create("m", "M", OrderState).withInitialState(OrderState.DRAFT);
    expect(await noTools.call("{}")).toMatchObject({
      kind: "error",
      content: "No tools registered for StateMachineTool",
    });
    expect(await orderProcessor.call("{}")).toMatchObject({
      kind: "error",
      content: "No AgentProcess context available",
    });
  });

  it("fails fast on unknown states, a transition without a tool, and one tool in two states", () => {
    expect(() => StateMachineTool.create("m", "M", [])).toThrow(/at least one state/);
    expect(new StateMachineTool("m", "M", ["A"]).withInitialState("A").initialState).toBe("A");
    const machine = StateMachineTool.create("m", "M", ["A", "B"]);
    expect(() => machine.withInitialState("C" as never)).toThrow(/unknown state C. States: A, B/);
    expect(() =>
      machine
        .inState("A")
        .withTool(addItem)
        .transitionsTo("Z" as never),
    ).toThrow(ConfigurationError);
    expect(() => machine.inState("A").transitionsTo("B")).toThrow(/must follow withTool/);
    expect(() => machine.inState("A").withTool(addItem).inState("B").withTool(addItem)).toThrow(
      /already registered in state A/,
    );
    expect(() => machine.withGlobalTool(addItem).inState("A").withTool(addItem)).toThrow(
      /already a global tool/,
    );
    expect(() => machine.inState("A").withTool(addItem).build().withGlobalTool(addItem)).toThrow(
      /already bound to a state/,
    );
  });

  it("counts its tools per state", () => {
    expect(orderProcessor.totalStateTools).toBe(5);
    expect(orderProcessor.stateToolCounts.get(OrderState.DRAFT)).toBe(2);
    expect(orderProcessor.innerTools).toHaveLength(6);
  });

  it("offers chained tools in every state", async () => {
    class Order {
      @llmTool({ description: "Order summary" })
      summary(): string {
        return "2 items";
      }
    }
    const machine = StateMachineTool.create("m", "M", ["OPEN", "CLOSED"] as const)
      .withInitialState("OPEN")
      .inState("OPEN")
      .withTool(tool("load", ToolResult.withArtifact("loaded", new Order())))
      .transitionsTo("CLOSED")
      .build()
      .withToolChainingFrom(Order);
    const model = await run(machine, [
      ScriptedModel.toolCall("load", {}),
      ScriptedModel.toolCall("summary", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 3)).toBe("2 items");
  });

  it("keeps a DRAFT-only facade's unfolded tools, and the facade's name, to DRAFT (D2)", async () => {
    let dropped = 0;
    const dropTable = Tool.create("drop_table", "Drops a table", () => {
      dropped += 1;
      return ToolResult.text("drop_table done");
    });
    const machine = StateMachineTool.create("orders", "Orders", ["DRAFT", "CONFIRMED"])
      .withInitialState("DRAFT")
      .inState("DRAFT")
      .withTool(UnfoldingTool.of("admin_ops", "Admin operations (DRAFT only)", [dropTable]))
      .withTool(tool("confirm"))
      .transitionsTo("CONFIRMED")
      .build();
    const model = await run(machine, [
      ScriptedModel.toolCall("admin_ops", {}),
      ScriptedModel.toolCall("confirm", {}),
      ScriptedModel.toolCall("admin_ops", {}),
      ScriptedModel.toolCall("drop_table", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(model.requests[2]?.toolNames).toEqual(["admin_ops", "confirm", "drop_table", "admin_ops_context"]);
    const wrongState =
      "This tool is not available in the current state (CONFIRMED). It is only available in state: DRAFT";
    expect(resultText(model, 4)).toBe(wrongState);
    expect(resultText(model, 5)).toBe(wrongState);
    expect(dropped).toBe(0);
  });

  it("runs an unfolded tool in its facade's state", async () => {
    const dropTable = tool("drop_table");
    const machine = StateMachineTool.create("orders", "Orders", ["DRAFT", "CONFIRMED"])
      .withInitialState("DRAFT")
      .inState("DRAFT")
      .withTool(UnfoldingTool.of("admin_ops", "Admin operations", [dropTable]))
      .build();
    const model = await run(machine, [
      ScriptedModel.toolCall("admin_ops", {}),
      ScriptedModel.toolCall("drop_table", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 3)).toBe("drop_table done");
  });

  it("moves a transitioning facade's machine when an inner tool it unfolded returns, not when it unfolds (N2)", async () => {
    const machine = StateMachineTool.create("orders", "Orders", ["DRAFT", "CONFIRMED"])
      .withInitialState("DRAFT")
      .inState("DRAFT")
      .withTool(UnfoldingTool.of("open_ops", "Open", [tool("op"), tool("other_op")]))
      .transitionsTo("CONFIRMED")
      .inState("CONFIRMED")
      .withTool(tool("ship"))
      .build();
    const model = await run(machine, [
      ScriptedModel.toolCall("open_ops", {}),
      ScriptedModel.toolCall("op", {}),
      ScriptedModel.toolCall("other_op", {}),
      ScriptedModel.toolCall("ship", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 2)).toMatch(/^Tools now available: op, other_op/);
    expect(resultText(model, 2)).not.toContain("[Current state:");
    expect(resultText(model, 3)).toBe("op done\n\n[Current state: CONFIRMED]");
    expect(resultText(model, 4)).toBe(
      "This tool is not available in the current state (CONFIRMED). It is only available in state: DRAFT",
    );
    expect(resultText(model, 5)).toBe("ship done");
  });

  it("keeps a JSON result valid JSON: the new state follows as a separate text part", async () => {
    const machine = StateMachineTool.create("orders", "Orders", ["A", "B"])
      .withInitialState("A")
      .inState("A")
      .withTool(tool("approve", ToolResult.text('{"ok":true}')))
      .transitionsTo("B")
      .build();
    const model = await run(machine, [
      ScriptedModel.toolCall("approve", {}),
      ScriptedModel.text("inner done"),
    ]);
    const output = model.requests[2]?.toolResults[0]?.output;
    expect(output).toEqual({
      type: "content",
      value: [
        { type: "text", text: '{"ok":true}' },
        { type: "text", text: "[Current state: B]" },
      ],
    });
  });
});
