// Code mode's approval waits under BullMQ on a real Redis: a program's
// approval-gated inner call makes the run wait on a worker; the answer comes
// from the caller; a fresh worker resumes the run from its checkpoint (the
// program's journal went through Redis as JSON) and the program replays:
// every lookup ran once, the refund once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentWorker, BullMqRunner } from "../src/distributed/index.js";
import { AgentPlatform, CodeModeTool, defineAgent, domainType, Tool } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

const Ticket = domainType("CodeTicket", z.object({ text: z.string() }));
const Reply = domainType("CodeReply", z.object({ text: z.string() }));

const PROGRAM = `const a = await tools.get_order({ id: 1 });
const b = await tools.get_order({ id: 2 });
const refunded = await tools.refund({ id: 2, cents: b.refund });
const c = await tools.get_order({ id: 3 });
return { refunded, sum: a.refund + b.refund + c.refund };`;

describe.skipIf(!hasRedisServer)("code mode waits with BullMqRunner", () => {
  let redis: TestRedis;
  const closers: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
    await redis?.stop();
  });

  it("waits on the worker, resumes from the checkpoint after the answer, and runs no tool twice", async () => {
    const lookups: number[] = [];
    const refunds: string[] = [];
    const getOrder = Tool.fromFunction(
      "get_order",
      "Looks up an order",
      z.object({ id: z.number().int() }),
      z.object({ id: z.number(), refund: z.number() }),
      async ({ id }) => {
        lookups.push(id);
        return { id, refund: id * 100 };
      },
    );
    const refund = Tool.requireApproval(
      Tool.fromFunction(
        "refund",
        "Refunds an order",
        z.object({ id: z.number().int(), cents: z.number().int() }),
        z.string(),
        async ({ id, cents }) => {
          refunds.push(`${id}:${cents}`);
          return `refunded ${cents} on ${id}`;
        },
      ),
      { message: "Refund?" },
    );
    const agent = defineAgent({
      name: "CodeDesk",
      description: "Refunds with code mode",
      actions: [
        {
          name: "answer",
          input: Ticket,
          output: Reply,
          achievesGoal: { description: "Answered" },
          run: async (ticket, context) => ({
            text: await context
              .ai()
              .withTools([CodeModeTool.of("run_code", "Orders.", [getOrder, refund])])
              .generateText(ticket.text),
          }),
        },
      ],
    });
    const model = new ScriptedModel([
      ScriptedModel.toolCall("run_code", { code: PROGRAM }, { id: "c1" }),
      ScriptedModel.text("Refunded."),
    ]);
    const workerPlatform = AgentPlatform.create({ models: { main: model } });
    workerPlatform.deploy(agent);
    const worker = await AgentWorker.start({
      connection: redis.url,
      queue: "codemode",
      platform: workerPlatform,
    });
    closers.push(() => worker.close({ force: true }));
    const runner = await BullMqRunner.create({ connection: redis.url, queue: "codemode" });
    closers.push(() => runner.close());
    const platform = AgentPlatform.create({ models: {}, runner });
    platform.deploy(agent);

    const waiting = await platform.runAgent("CodeDesk", Ticket.create({ text: "Refund order 2" }));
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting).toEqual([
      expect.objectContaining({ kind: "approval", toolName: "refund", arguments: { id: 2, cents: 200 } }),
    ]);
    expect(lookups).toEqual([1, 2]);
    // The first worker goes away: a fresh one (fresh platform and model) resumes from Redis alone.
    await worker.close({ force: true });
    const resumedModel = new ScriptedModel([ScriptedModel.text("Refunded.")]);
    const freshPlatform = AgentPlatform.create({ models: { main: resumedModel } });
    freshPlatform.deploy(agent);
    const fresh = await AgentWorker.start({
      connection: redis.url,
      queue: "codemode",
      platform: freshPlatform,
    });
    closers.push(() => fresh.close({ force: true }));
    const done = await platform.respond(waiting.id, "r1", { approved: true }, { respondent: "ops" });
    expect(done.status).toBe("completed");
    expect(done.result).toEqual({ text: "Refunded." });
    expect(lookups).toEqual([1, 2, 3]);
    expect(refunds).toEqual(["2:200"]);
    expect(model.requests).toHaveLength(1);
    expect(resumedModel.requests).toHaveLength(1);
    expect(resumedModel.requests[0]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: '{"refunded":"refunded 200 on 2","sum":600}',
    });
  }, 60_000);
});
