// Stateful tool routes across waits answered on another worker: a run waits
// three times (a chained tool, a playbook's unlocked tool, a state machine's
// tool of the state it moved to); each time the worker that ran it is closed
// and a fresh one (a new platform, the state read back from Redis) resumes it.
// Each approved tool runs once with its input; the chained instance comes back
// as its class, through the worker's type registry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { hasRedisServer, startRedis, type TestRedis } from "../../test/support/redis-server.js";
import { PlaybookTool } from "../agentic/playbook-tool.js";
import { StateMachineTool } from "../agentic/state-machine-tool.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { defineAgent } from "../platform/define-agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { InputSchema } from "../tool/input-schema.js";
import { llmTool } from "../tool/llm-tool.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { AgentWorker } from "./agent-worker.js";
import { BullMqRunner } from "./bullmq-runner.js";

const Ticket = domainType("Ticket", z.object({ text: z.string() }));
const Reply = domainType("Reply", z.object({ text: z.string() }));
const Order = domainType("Order", z.object({ id: z.string() }));
const Cents = z.object({ cents: z.number().int() });

/** Every approved tool that ran: `<tool>:<input>`, with `this` for the chained one. */
const ran: string[] = [];
/** The chained instances whose method ran (to tell a decoded one from the original). */
const instances: object[] = [];

class Account {
  constructor(readonly id: string) {}

  @llmTool({ description: "Refunds this account", input: Cents, requiresApproval: true })
  issue_refund({ cents }: z.output<typeof Cents>): string {
    instances.push(this);
    ran.push(`issue_refund:${this.id}:${cents}`);
    return `refunded ${cents} to ${this.id}`;
  }
}

const getAccount = Tool.create("get_account", "Retrieves an account", () =>
  ToolResult.withArtifact("account A7", new Account("A7")),
);

function gated(name: string): Tool {
  return Tool.requireApproval(
    Tool.create(name, `Refunds (${name})`, InputSchema.of(Param.integer("cents", "The amount")), (input) => {
      ran.push(`${name}:${input}`);
      return ToolResult.text(`${name} done`);
    }),
  );
}

const playbook = PlaybookTool.create("refunds", "Refund orders")
  .withTools(
    Tool.create("lookup_order", "Looks an order up", () =>
      ToolResult.withArtifact("order 7", Order.create({ id: "7" })),
    ),
  )
  .withTool(gated("refund_order"))
  .unlockedBy("lookup_order");

const machine = StateMachineTool.create("orders", "Process orders", ["DRAFT", "CONFIRMED"])
  .withInitialState("DRAFT")
  .inState("DRAFT")
  .withTool(Tool.create("confirm", "Confirms", () => ToolResult.text("confirmed")))
  .transitionsTo("CONFIRMED")
  .inState("CONFIRMED")
  .withTool(gated("refund_confirmed"))
  .build();

const desk = defineAgent({
  name: "StatefulDesk",
  description: "Refunds through every stateful route",
  actions: [
    {
      name: "answer",
      input: Ticket,
      output: Reply,
      achievesGoal: { description: "Answered" },
      run: async (ticket, context) => ({
        text: await context
          .ai()
          .withToolChainingFrom(Account)
          .withTools([getAccount, playbook, machine])
          .generateText(ticket.text),
      }),
    },
  ],
});

/** The whole conversation, outer and nested, in the order the model is asked. */
const model = new ScriptedModel([
  ScriptedModel.toolCall("get_account", {}, { id: "a" }),
  ScriptedModel.toolCall("issue_refund", { cents: 100 }, { id: "b" }),
  ScriptedModel.toolCall("refunds", {}, { id: "c" }),
  ScriptedModel.toolCall("lookup_order", {}, { id: "d" }),
  ScriptedModel.toolCall("refund_order", { cents: 200 }, { id: "e" }),
  ScriptedModel.text("playbook done"),
  ScriptedModel.toolCall("orders", {}, { id: "f" }),
  ScriptedModel.toolCall("confirm", {}, { id: "g" }),
  ScriptedModel.toolCall("refund_confirmed", { cents: 300 }, { id: "h" }),
  ScriptedModel.text("machine done"),
  ScriptedModel.text("Done"),
]);

describe.skipIf(!hasRedisServer)("stateful tool routes across workers (real Redis)", () => {
  let redis: TestRedis;
  let runner: BullMqRunner | undefined;
  let worker: AgentWorker | undefined;

  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(async () => {
    await worker?.close({ force: true }).catch(() => {});
    await runner?.close().catch(() => {});
    await redis?.stop();
  });

  /** A fresh worker (its own platform) on the queue, the previous one closed. */
  async function freshWorker(): Promise<void> {
    await worker?.close();
    const platform = AgentPlatform.create({ models: { main: model } });
    platform.deploy(desk);
    worker = await AgentWorker.start({
      connection: redis.url,
      queue: "stateful",
      platform,
      types: [Account, Order],
      concurrency: 1,
    });
  }

  it("each approved tool runs once with its input after a resume on another worker", async () => {
    runner = await BullMqRunner.create({ connection: redis.url, queue: "stateful", types: [Account, Order] });
    const client = AgentPlatform.create({ models: {}, runner });
    client.deploy(desk);
    await freshWorker();
    let process = await client.runAgent("StatefulDesk", Ticket.create({ text: "Refund everything" }));
    const asked: string[] = [];
    while (process.status === "waiting") {
      const request = process.awaiting[0];
      if (request?.kind === "approval")
        asked.push(`${request.toolName}:${JSON.stringify(request.arguments)}`);
      await freshWorker();
      process = await client.respond(process.id, request?.id ?? "", { approved: true });
    }
    expect(process.status, process.statusReason).toBe("completed");
    expect(process.result).toEqual({ text: "Done" });
    expect(asked).toEqual([
      'issue_refund:{"cents":100}',
      'refund_order:{"cents":200}',
      'refund_confirmed:{"cents":300}',
    ]);
    expect(ran).toEqual([
      "issue_refund:A7:100",
      'refund_order:{"cents":200}',
      'refund_confirmed:{"cents":300}',
    ]);
    // The instance bound before the wait came back from Redis as an Account.
    expect(instances[0]).toBeInstanceOf(Account);
    expect(model.requests).toHaveLength(11);
  }, 60_000);
});
