import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { Subagent } from "../subagent/subagent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { domainType } from "../tool/type-token.js";
import { AgentPlatform } from "./agent-platform.js";
import { defineAgent } from "./define-agent.js";
import { WaitFor } from "./wait-for.js";

const Order = domainType("Order", z.object({ id: z.string(), cents: z.number() }));
const Outcome = domainType("Outcome", z.object({ text: z.string() }));

const Address = z.object({ street: z.string(), city: z.string() });

function agentRunning(
  run: (order: z.output<typeof Order.schema>, context: never) => Promise<{ text: string }>,
) {
  return defineAgent({
    name: "Shipper",
    description: "Ships orders",
    actions: [
      {
        name: "ship",
        input: Order,
        output: Outcome,
        achievesGoal: { description: "Shipped" },
        run: run as never,
      },
    ],
  });
}

describe("WaitFor.confirmation", () => {
  it("waits, then gives the action the answer; earlier LLM calls are not repeated", async () => {
    const model = new ScriptedModel([ScriptedModel.text("A summary")]);
    const platform = AgentPlatform.create({ models: { main: model } });
    let runs = 0;
    const agent = defineAgent({
      name: "Shipper",
      description: "Ships orders",
      actions: [
        {
          name: "ship",
          input: Order,
          output: Outcome,
          achievesGoal: { description: "Shipped" },
          run: async (order, context) => {
            runs += 1;
            const summary = await context.ai().generateText(`Summarise ${order.id}`);
            const answer = await WaitFor.confirmation(order, `Ship it? ${summary}`);
            return { text: answer.approved ? `shipped ${order.id}` : `held: ${answer.reason}` };
          },
        },
      ],
    });
    const waiting = await platform.runAgent(agent, Order.create({ id: "o1", cents: 5 }));
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting).toEqual([
      expect.objectContaining({
        id: "r1",
        kind: "confirmation",
        payload: { id: "o1", cents: 5 },
        message: "Ship it? A summary",
      }),
    ]);
    const done = await platform.respond(waiting.id, "r1", { approved: false, reason: "address unknown" });
    expect(done.result).toEqual({ text: "held: address unknown" });
    expect(runs).toBe(2);
    expect(model.requests).toHaveLength(1);
  });

  it("needs an agent process", async () => {
    await expect(WaitFor.confirmation({}, "ok?")).rejects.toThrow(ConfigurationError);
  });
});

describe("WaitFor.formSubmission", () => {
  const agent = agentRunning(async (order) => {
    const address = await WaitFor.formSubmission("Delivery address", Address);
    return { text: `${order.id} to ${address.street}, ${address.city}` };
  });

  it("sends the form's schema and gives the action the validated values", async () => {
    const platform = AgentPlatform.create({ models: {} });
    const waiting = await platform.runAgent(agent, Order.create({ id: "o2", cents: 1 }));
    const [request] = waiting.awaiting;
    expect(request).toMatchObject({
      kind: "form",
      title: "Delivery address",
      what: "form: Delivery address",
    });
    expect(request?.kind === "form" && request.schema).toMatchObject({ required: ["street", "city"] });
    await expect(platform.respond(waiting.id, "r1", { street: "Main St" })).rejects.toThrow(/city/);
    expect(waiting.status).toBe("waiting");
    const done = await platform.respond(waiting.id, "r1", { street: "Main St", city: "Oslo" });
    expect(done.result).toEqual({ text: "o2 to Main St, Oslo" });
  });

  it("fails the process when the form times out", async () => {
    const timed = agentRunning(async () => {
      await WaitFor.formSubmission("Address", Address, { timeoutMs: 20 });
      return { text: "never" };
    });
    const platform = AgentPlatform.create({ models: {} });
    const waiting = await platform.runAgent(timed, Order.create({ id: "o3", cents: 1 }));
    for (let waited = 0; waiting.status !== "failed" && waited < 10_000; waited += 25) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(waiting.status).toBe("failed");
    expect(waiting.statusReason).toBe("Form 'Address' was not submitted within 20 ms.");
  });
});

class Refunds {
  readonly done: string[] = [];
  @llmTool({
    description: "Refunds an order",
    input: z.object({ orderId: z.string() }),
    requiresApproval: { message: "Refund?" },
  })
  refund(input: { orderId: string }) {
    this.done.push(input.orderId);
    return `refunded ${input.orderId}`;
  }
}

describe("a subagent's wait", () => {
  it("makes the root wait, is answered on the root, and resumes both without repeating LLM calls", async () => {
    const refunds = new Refunds();
    const Claim = domainType("Claim", z.object({ orderId: z.string() }));
    const Settled = domainType("Settled", z.object({ text: z.string() }));
    const child = defineAgent({
      name: "Refunder",
      description: "Refunds claims",
      actions: [
        {
          name: "refund",
          input: Claim,
          output: Settled,
          achievesGoal: { description: "Refunded" },
          run: async (claim, context) => ({
            text: await context.ai().withToolObject(refunds).generateText(`Refund ${claim.orderId}`),
          }),
        },
      ],
    });
    const parent = agentRunning(async (order, context: never) => {
      const ai = (context as { ai(): ReturnType<AgentPlatform["ai"]> }).ai();
      const text = await ai
        .withTools([Subagent.ofInstance(child).consuming(Claim)])
        .generateText(`Handle ${order.id}`);
      return { text };
    });
    const model = new ScriptedModel([
      ScriptedModel.toolCall("Refunder", { orderId: "o9" }, { id: "p1" }),
      ScriptedModel.toolCall("refund", { orderId: "o9" }, { id: "k1" }),
      ScriptedModel.text("child done"),
      ScriptedModel.text("parent done"),
    ]);
    const platform = AgentPlatform.create({ models: { main: model } });
    const waiting = await platform.runAgent(parent, Order.create({ id: "o9", cents: 3 }));
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting).toEqual([
      expect.objectContaining({ id: "r1", toolName: "refund", message: "Refund?" }),
    ]);
    expect(refunds.done).toEqual([]);
    expect(model.requests).toHaveLength(2);
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(done.result).toEqual({ text: "parent done" });
    expect(refunds.done).toEqual(["o9"]);
    expect(model.requests).toHaveLength(4);
    expect(model.requests[3]?.toolResults[0]?.output).toMatchObject({
      value: expect.stringContaining("child done"),
    });
  });

  it("@llmTool requiresApproval puts approval in the tool's metadata", () => {
    const [tool] = Tool.fromInstance(new Refunds());
    expect(tool?.metadata.approval).toEqual({ message: "Refund?" });
  });
});
