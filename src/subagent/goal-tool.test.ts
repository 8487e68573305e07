import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { defineAgent } from "../platform/define-agent.js";
import type { OperationContext } from "../platform/operation-context.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { Verbosity } from "../platform/verbosity.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { domainType } from "../tool/type-token.js";
import { GoalTool, sanitizedGoalName } from "./goal-tool.js";

const Order = domainType("Order", z.object({ item: z.string() }));
const Invoice = domainType("Invoice", z.object({ item: z.string(), amount: z.number() }));
const Receipt = domainType("Receipt", z.object({ text: z.string() }));

/** Two agents: one turns orders into invoices, the other invoices into receipts (its goal). */
function setUp() {
  const seen: { process?: AgentProcess } = {};
  const billing = defineAgent({
    name: "Billing",
    description: "Bills orders",
    actions: [
      {
        name: "invoice",
        input: Order,
        output: Invoice,
        achievesGoal: { description: "Invoiced" },
        run: (order: { item: string }) => ({ item: order.item, amount: 42 }),
      },
    ],
  });
  const receipts = defineAgent({
    name: "Receipts",
    description: "Writes receipts",
    actions: [
      {
        name: "receipt",
        input: Invoice,
        output: Receipt,
        achievesGoal: { description: "A receipt was written", name: "com.shop.Receipts.receipt" },
        run: (invoice: { item: string; amount: number }, context: OperationContext) => {
          seen.process = context.process;
          return { text: `${invoice.item}: $${invoice.amount}` };
        },
      },
    ],
  });
  const platform = AgentPlatform.create({ name: "shop", models: { main: new ScriptedModel() } });
  platform.deploy(billing);
  platform.deploy(receipts);
  return { platform, seen };
}

describe("sanitizedGoalName", () => {
  it("joins the last two dot-segments with an underscore", () => {
    expect(sanitizedGoalName("com.myco.MyAgent.myGoal")).toBe("MyAgent_myGoal");
    expect(sanitizedGoalName("Billing.invoice")).toBe("Billing_invoice");
    expect(sanitizedGoalName("single")).toBe("single");
  });
});

describe("GoalTool", () => {
  it("is named after the goal and described by it", () => {
    const { platform } = setUp();
    const tool = GoalTool.of(platform, "com.shop.Receipts.receipt", Order);
    expect(tool.definition.name).toBe("Receipts_receipt");
    expect(tool.definition.description).toBe("A receipt was written");
    expect(tool.definition.inputSchema.jsonSchema).toEqual(Order.jsonSchema);
    expect(String(tool)).toBe("GoalTool(com.shop.Receipts.receipt)");
  });

  it("plans across every deployed agent's actions to reach the goal", async () => {
    const { platform } = setUp();
    const events: AgentProcessEvent[] = [];
    const tool = GoalTool.of(platform, "com.shop.Receipts.receipt", Order).withListener((event) =>
      events.push(event),
    );
    const result = await tool.call('{"item":"lamp"}');
    expect(result).toEqual({ kind: "text", content: '{"text":"lamp: $42"}' });
    const plan = events.find((event) => event.type === "plan-formulated");
    expect(plan).toMatchObject({ actions: ["invoice", "receipt"] });
  });

  it("shows prompts by default; withVerbosity changes that", async () => {
    const { platform, seen } = setUp();
    const tool = GoalTool.of(platform, "com.shop.Receipts.receipt", Order);
    await tool.call('{"item":"lamp"}');
    expect(seen.process?.processOptions.verbosity.showPrompts).toBe(true);
    const quiet = new Verbosity();
    await tool.withVerbosity(quiet).call('{"item":"lamp"}');
    expect(seen.process?.processOptions.verbosity).toBe(quiet);
  });

  it("inherits nothing from a calling process", async () => {
    const { platform, seen } = setUp();
    const tool = GoalTool.of(platform, "com.shop.Receipts.receipt", Order);
    const outer = await platform.runInProcess(() => tool.call('{"item":"lamp"}'));
    expect(outer.status).toBe("completed");
    expect(seen.process?.parentId).toBeUndefined();
    expect(seen.process?.blackboard.parent).toBeUndefined();
  });

  it("gives the run the call's ToolCallContext, without the calling loop's id", async () => {
    const { platform, seen } = setUp();
    const context = ToolCallContext.of({ tenant: "acme", [ToolCallContext.LOOP_ID_KEY]: "outer-loop" });
    await GoalTool.of(platform, "com.shop.Receipts.receipt", Order).call('{"item":"lamp"}', context);
    expect(seen.process?.processOptions.toolCallContext.toRecord()).toEqual({ tenant: "acme" });
  });

  it("answers bad input with the BAD INPUT message", async () => {
    const { platform } = setUp();
    const result = await GoalTool.of(platform, "com.shop.Receipts.receipt", Order).call('{"item":3}');
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(
      /^BAD INPUT ERROR parsing tool input: Invalid Order: item: .*: Try again and see if you can get the format right$/,
    );
  });

  it("rejects an unknown goal, listing the goals", () => {
    const { platform } = setUp();
    expect(() => GoalTool.of(platform, "Nope.goal", Order)).toThrow(
      "No goal named 'Nope.goal' on platform 'shop'. Goals: [Billing.invoice, com.shop.Receipts.receipt]",
    );
  });
});
