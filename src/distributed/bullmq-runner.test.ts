import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { installRecordingTracer } from "../../test/support/recording-tracer.js";
import { hasRedisServer, startRedis, type TestRedis } from "../../test/support/redis-server.js";
import { SerializationError } from "../errors/serialization-error.js";
import type { Agent } from "../platform/agent.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { defineAgent } from "../platform/define-agent.js";
import type { OperationContext } from "../platform/operation-context.js";
import type { ProcessCheckpoint } from "../platform/process-checkpoint.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { ProcessOptions } from "../platform/process-options.js";
import { WaitFor } from "../platform/wait-for.js";
import { domainType } from "../tool/type-token.js";
import { AgentWorker } from "./agent-worker.js";
import { BullMqRunner } from "./bullmq-runner.js";

class Order {
  constructor(
    readonly item: string,
    readonly quantity: number,
  ) {}
}
class Invoice {
  constructor(
    readonly order: Order,
    readonly total: number,
    readonly issued: Date,
  ) {}
  describe(): string {
    return `${this.order.quantity} × ${this.order.item} = ${this.total}`;
  }
}
const Receipt = domainType("Receipt", z.object({ text: z.string(), paid: z.boolean() }));
class Socketish {
  readonly fd = 3;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const aborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));

/** Order → Invoice → Receipt; `hold` makes `invoice` wait until the process is killed. */
function billing(options: { hold?: boolean; leak?: boolean; ran?: string[] } = {}): Agent {
  return defineAgent({
    name: "Billing",
    description: "Invoices an order and issues a receipt",
    actions: [
      {
        name: "invoice",
        input: Order,
        output: Invoice,
        run: async (order: Order, context: OperationContext) => {
          options.ran?.push("invoice");
          if (options.hold) await aborted(context.signal);
          if (options.leak) context.blackboard.add(new Socketish());
          return new Invoice(order, order.quantity * 2.5, new Date("2026-01-02T03:04:05Z"));
        },
      },
      {
        name: "receipt",
        input: Invoice,
        output: Receipt,
        achievesGoal: { description: "A receipt" },
        run: (invoice: Invoice) => {
          options.ran?.push("receipt");
          return Receipt.create({ text: invoice.describe(), paid: true });
        },
      },
    ],
  });
}

const spans = installRecordingTracer();

/** An order shipped once a person confirms it (within `timeoutMs` when given). */
function shipping(timeoutMs?: number): Agent {
  return defineAgent({
    name: "Shipping",
    description: "Ships an order once confirmed",
    actions: [
      {
        name: "ship",
        input: Order,
        output: Receipt,
        achievesGoal: { description: "Shipped" },
        run: async (order: Order) => {
          const answer = await WaitFor.confirmation(
            order,
            `Ship ${order.item}?`,
            timeoutMs === undefined ? undefined : { timeoutMs },
          );
          return Receipt.create({
            text: answer.approved ? `${order.item} shipped` : `not shipped: ${answer.reason}`,
            paid: answer.approved,
          });
        },
      },
    ],
  });
}

function platformWith(runner: BullMqRunner | undefined, ...agents: Agent[]): AgentPlatform {
  const platform = AgentPlatform.create({ models: {}, ...(runner ? { runner } : {}) });
  for (const agent of agents) platform.deploy(agent);
  return platform;
}

describe.skipIf(!hasRedisServer)("BullMqRunner and AgentWorker on a real Redis", () => {
  let redis: TestRedis;
  let queue = 0;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** A client platform and a worker on a fresh queue; the client deploys `clientAgents`. */
  async function setup(workerAgent: Agent, clientAgents: Agent[] = [workerAgent]) {
    const name = `q${++queue}`;
    const worker = await AgentWorker.start({
      connection: redis.url,
      queue: name,
      platform: platformWith(undefined, workerAgent),
      concurrency: 4,
    });
    closers.push(() => worker.close({ force: true }));
    const runner = await BullMqRunner.create({ connection: redis.url, queue: name });
    closers.push(() => runner.close());
    return { worker, runner, platform: platformWith(runner, ...clientAgents) };
  }

  it("runs a process on a worker and returns it finished: status, typed result, blackboard, history", async () => {
    const { platform } = await setup(billing());
    const process = await platform.runAgent("Billing", new Order("tea", 4));
    expect(process.status).toBe("completed");
    expect(Receipt.is(process.result)).toBe(true);
    expect(process.result).toEqual({ text: "4 × tea = 10", paid: true });
    const invoice = process.blackboard.last(Invoice);
    expect(invoice).toBeInstanceOf(Invoice);
    expect(invoice?.order).toBeInstanceOf(Order);
    expect(invoice?.issued).toEqual(new Date("2026-01-02T03:04:05Z"));
    expect(process.blackboard.get("it")).toBe(process.blackboard.last(Order));
    expect(process.history.map((entry) => [entry.actionName, entry.outcome])).toEqual([
      ["invoice", "succeeded"],
      ["receipt", "succeeded"],
    ]);
    expect(process.agent?.name).toBe("Billing");
  });

  it("gives a handle at once; platform.process(id) polls the process; listeners get the worker's events", async () => {
    const { platform } = await setup(billing());
    const events: AgentProcessEvent[] = [];
    const handle = await platform.startAgent("Billing", new Order("jam", 2), {
      processOptions: ProcessOptions.DEFAULT.withListener((event) => events.push(event)),
    });
    expect(typeof handle.id).toBe("string");
    const finished = await handle.result();
    expect(finished.id).toBe(handle.id);
    expect(finished.status).toBe("completed");
    const polled = await platform.process(handle.id);
    expect(polled?.status).toBe("completed");
    expect(polled?.result).toEqual({ text: "2 × jam = 5", paid: true });
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        "process-started",
        "plan-formulated",
        "action-start",
        "action-end",
        "process-finished",
      ]),
    );
    expect(events.every((event) => event.processId === handle.id)).toBe(true);
    expect(await platform.process("never-queued")).toBeUndefined();
  });

  it("continues a checkpoint taken elsewhere on a worker, without re-running finished actions", async () => {
    const ran: string[] = [];
    const { platform } = await setup(billing({ ran }));
    const local = platformWith(undefined, billing({ ran }));
    let checkpoint: ProcessCheckpoint | undefined;
    const stopped = await local.runAgent("Billing", new Order("tea", 2), {
      afterAction: (process) => {
        checkpoint = process.checkpoint();
        process.kill("moving to a worker");
      },
    });
    expect(stopped.status).toBe("killed");
    const resumed = await platform.runAgent("Billing", undefined, { checkpoint });
    expect(resumed.id).toBe(stopped.id);
    expect(resumed.status).toBe("completed");
    expect(resumed.result).toEqual({ text: "2 × tea = 5", paid: true });
    expect(resumed.history.map((entry) => entry.actionName)).toEqual(["invoice", "receipt"]);
    expect(ran).toEqual(["invoice", "receipt"]);
  });

  it("runs a child process (a subagent's run, with a parent) in its parent's Node process, not on the queue", async () => {
    const ran: string[] = [];
    const { platform } = await setup(billing(), [billing({ ran })]);
    const parent = await platform.runInProcess(async (context) => {
      const child = await platform.runAgent("Billing", new Order("tea", 1), { parent: context.process });
      return child.status;
    });
    expect(parent.result).toBe("completed");
    expect(ran).toEqual(["invoice", "receipt"]);
  });

  it("ends a run of an agent no worker knows failed, saying so", async () => {
    const { platform } = await setup(billing(), []);
    const process = await platform.runAgent("Shipping", { item: "tea" });
    expect(process.status).toBe("failed");
    expect(process.statusReason).toBe(
      `No agent named 'Shipping' is deployed on the workers of queue 'q${queue}'. Deployed agents: [Billing]`,
    );
  });

  it("refuses at enqueue an input of a type no agent declares, naming the type", async () => {
    const { platform } = await setup(billing());
    const attempt = platform.startAgent("Billing", new Socketish());
    await expect(attempt).rejects.toThrow(SerializationError);
    await expect(platform.startAgent("Billing", new Socketish())).rejects.toThrow(
      /Cannot serialise the input: an object of type 'Socketish' is not a known type/,
    );
  });

  it("fails at the checkpoint a process whose action added an object of an unknown type, naming it", async () => {
    const { platform } = await setup(billing({ leak: true }));
    const process = await platform.runAgent("Billing", new Order("tea", 1));
    expect(process.status).toBe("failed");
    expect(process.statusReason).toMatch(
      /blackboard\[1\]: an object of type 'Socketish' is not a known type/,
    );
    expect(process.history.map((entry) => entry.actionName)).toEqual(["invoice"]);
  });

  it("kills a process on its worker from the caller's handle", async () => {
    const { platform, worker } = await setup(billing({ hold: true }));
    const handle = await platform.startAgent("Billing", new Order("tea", 1));
    for (let tries = 0; worker.activeCount === 0 && tries < 200; tries++) await wait(10);
    await handle.kill("Customer cancelled");
    const process = await handle.result();
    expect(process.status).toBe("killed");
    expect(process.statusReason).toBe("Customer cancelled");
  });

  it("kills through the run's AbortSignal, and before it starts when still queued", async () => {
    const { platform } = await setup(billing({ hold: true }));
    const controller = new AbortController();
    controller.abort(new Error("Changed my mind"));
    const process = await platform.runAgent("Billing", new Order("tea", 1), { signal: controller.signal });
    expect(process.status).toBe("killed");
    expect(process.statusReason).toBe("Changed my mind");
    expect(process.history).toEqual([]);
  });

  it("applies the caller's budget on the worker", async () => {
    const { platform } = await setup(billing());
    const process = await platform.runAgent("Billing", new Order("tea", 1), {
      processOptions: ProcessOptions.DEFAULT.withBudget({ actions: 1 }),
    });
    expect(process.status).toBe("terminated");
    expect(process.history).toHaveLength(1);
  });

  it("answers a waiting run from the caller: the worker finishes it, and the answer is traced as a wait span", async () => {
    const { platform } = await setup(shipping());
    const waiting = await platform.runAgent("Shipping", new Order("tea", 1));
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting.map((request) => request.id)).toEqual(["r1"]);
    spans.length = 0;
    const done = await platform.respond(waiting.id, "r1", { approved: true }, { respondent: "ops" });
    expect(done.status).toBe("completed");
    expect(done.result).toEqual({ text: "tea shipped", paid: true });
    expect(spans.filter((span) => span.name === "embabel.wait confirmation")).toEqual([
      expect.objectContaining({
        ended: true,
        attributes: expect.objectContaining({
          "embabel.process.id": waiting.id,
          "embabel.wait.request_id": "r1",
          "embabel.wait.respondent": "ops",
          "embabel.wait.approved": true,
        }),
      }),
    ]);
  });

  it("denies a wait nobody answers by its deadline: the worker's deadline job continues the run with 'timed out'", async () => {
    const { platform } = await setup(shipping(400));
    const waiting = await platform.runAgent("Shipping", new Order("jam", 1));
    expect(waiting.status).toBe("waiting");
    let process = waiting;
    for (let tries = 0; process.status === "waiting" && tries < 100; tries++) {
      await wait(100);
      process = (await platform.process(waiting.id)) ?? process;
    }
    expect(process.status).toBe("completed");
    expect(process.result).toEqual({ text: "not shipped: timed out", paid: false });
    await expect(platform.respond(waiting.id, "r1", { approved: true })).rejects.toThrow(/is not waiting/);
  });

  it("rejects at once, naming the URL, when Redis cannot be reached", async () => {
    await expect(BullMqRunner.create({ connection: "redis://127.0.0.1:1" })).rejects.toThrow(
      /^Cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .*ECONNREFUSED.*Start redis-server, or fix the URL/,
    );
    await expect(
      AgentWorker.start({ connection: "redis://127.0.0.1:1", platform: platformWith(undefined, billing()) }),
    ).rejects.toThrow(/Cannot reach Redis at redis:\/\/127\.0\.0\.1:1/);
  });
});
