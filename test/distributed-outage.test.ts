import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentWorker } from "../src/distributed/agent-worker.js";
import { BullMqRunner } from "../src/distributed/bullmq-runner.js";
import { CheckpointError } from "../src/errors/checkpoint-error.js";
import { ConfigurationError } from "../src/errors/configuration-error.js";
import { ProcessLostError } from "../src/errors/process-lost-error.js";
import type { Agent } from "../src/platform/agent.js";
import { AgentPlatform } from "../src/platform/agent-platform.js";
import { defineAgent } from "../src/platform/define-agent.js";
import type { OperationContext } from "../src/platform/operation-context.js";
import { ProcessOptions } from "../src/platform/process-options.js";
import { Logger } from "../src/tool/logger.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// Distributed runs when Redis misbehaves, on a real redis-server and real BullMQ:
// a job lost with a Redis restarted without persistence, an outage longer than
// the lock (fencing), corrupt checkpoints, reused process ids, job expiry.
// Locks, stalled checks and polls are short so each test takes a few seconds.

const LOCK_MS = 1_000;
const STALLED_MS = 300;

class Work {
  constructor(readonly n: number) {}
}
class Half {
  constructor(readonly n: number) {}
}
class Done {
  constructor(readonly n: number) {}
}

interface ActionRecord {
  readonly run: number;
  readonly action: string;
  readonly start: number;
  end?: number;
  outcome?: "ended" | "aborted";
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * Work → Half → Done, each action `ms` long. Every execution of an action is
 * recorded with its start and end. `stubborn` makes the first execution of
 * `halve` ignore the abort signal and take `stubborn` ms (an action that
 * cannot be interrupted).
 */
function pipeline(records: ActionRecord[], options: { ms?: number; stubborn?: number } = {}): Agent {
  const ms = options.ms ?? 150;
  let halves = 0;
  const step =
    (name: string, run: (signal: AbortSignal) => Promise<void>) => async (context: OperationContext) => {
      const record: ActionRecord = { run: records.length, action: name, start: Date.now() };
      records.push(record);
      try {
        await run(context.signal);
        record.outcome = "ended";
      } catch (error) {
        record.outcome = "aborted";
        throw error;
      } finally {
        record.end = Date.now();
      }
    };
  return defineAgent({
    name: "Pipeline",
    description: "Halves, then finishes",
    actions: [
      {
        name: "halve",
        input: Work,
        output: Half,
        run: async (work: Work, context: OperationContext) => {
          const first = halves++ === 0;
          await step("halve", (signal) =>
            first && options.stubborn ? sleep(options.stubborn) : sleep(ms, signal),
          )(context);
          return new Half(work.n / 2);
        },
      },
      {
        name: "finish",
        input: Half,
        output: Done,
        achievesGoal: { description: "Done" },
        run: async (half: Half, context: OperationContext) => {
          await step("finish", (signal) => sleep(ms, signal))(context);
          return new Done(half.n + 1);
        },
      },
    ],
  });
}

const until = async (what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
};

describe.skipIf(!hasRedisServer)("distributed runs when Redis fails", () => {
  const closers: (() => Promise<void>)[] = [];
  const warnings: string[] = [];
  let previousLogger: Logger | undefined;
  let queue = 0;

  beforeAll(() => {
    previousLogger = Logger.setDefault({
      debug: () => {},
      info: () => {},
      warn: (message) => warnings.push(message),
      error: (message) => warnings.push(message),
    });
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
    warnings.length = 0;
  });
  afterAll(() => {
    if (previousLogger) Logger.setDefault(previousLogger);
  });

  async function setup(redis: TestRedis, agent: Agent, options: { concurrency?: number } = {}) {
    const name = `outage${++queue}`;
    const finished: string[] = [];
    const workerPlatform = AgentPlatform.create({ models: {} });
    workerPlatform.deploy(agent);
    const worker = await AgentWorker.start({
      connection: redis.url,
      queue: name,
      platform: workerPlatform,
      concurrency: options.concurrency ?? 2,
      lockDurationMs: LOCK_MS,
      stalledIntervalMs: STALLED_MS,
      onFinished: (process) => finished.push(`${process.id} ${process.status}`),
    });
    closers.push(() => worker.close({ force: true }));
    const runner = await BullMqRunner.create({
      connection: redis.url,
      queue: name,
      stalledIntervalMs: STALLED_MS,
    });
    closers.push(() => runner.close());
    const platform = AgentPlatform.create({ models: {}, runner });
    platform.deploy(agent);
    const raw = new Redis(redis.url, { maxRetriesPerRequest: null });
    raw.on("error", () => {});
    closers.push(async () => raw.disconnect());
    return { name, worker, runner, platform, finished, raw };
  }

  describe("a Redis restarted without persistence", () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it("fails the caller's result() with a ProcessLostError naming the process within the stalled interval, and the worker stops the run", async () => {
      const records: ActionRecord[] = [];
      const { platform, finished, raw, name } = await setup(redis, pipeline(records, { ms: 400 }));
      const handle = await platform.startAgent("Pipeline", new Work(8), { id: "lost-1" });
      const outcome = handle.result().then(
        () => "resolved",
        (error: unknown) => error,
      );
      await until("the first action runs", () => records.length === 1);
      await redis.restart({ downMs: 200 });
      const restartedAt = Date.now();
      const error = await outcome;
      const waitedMs = Date.now() - restartedAt;
      expect(ProcessLostError.isInstance(error)).toBe(true);
      expect((error as ProcessLostError).processId).toBe("lost-1");
      expect((error as Error).message).toMatch(
        new RegExp(`^Process lost-1 is lost: its job is gone from queue '${name}' in Redis`),
      );
      // Reconnecting takes up to a few hundred ms, then one check.
      expect(waitedMs).toBeLessThan(STALLED_MS + 3_000);

      // The worker lost its lock with the data: it stops the run and writes nothing.
      await until("the worker stops the run", () =>
        warnings.some((line) => line.includes("stopped process lost-1")),
      );
      await sleep(800);
      expect(await raw.get(`embabel:${name}:checkpoint:lost-1`)).toBeNull();
      expect(finished).toEqual([]);
      expect(records.filter((record) => record.action === "finish")).toEqual([]);
      // Redis going away and coming back: one line each per client, no stack traces.
      expect(warnings.filter((line) => line.includes("is unreachable")).length).toBeGreaterThan(0);
      expect(warnings.some((line) => line.includes("is reachable again"))).toBe(true);
      expect(warnings.every((line) => !line.includes("\n    at "))).toBe(true);
    }, 30_000);
  });

  describe("an outage longer than the lock (Redis paused, data kept)", () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it("stops the worker's run before another execution can start: the process never runs twice at once, and finishes once", async () => {
      const records: ActionRecord[] = [];
      const { platform, finished } = await setup(redis, pipeline(records, { ms: 1_200 }));
      const handle = await platform.startAgent("Pipeline", new Work(8), { id: "paused-1" });
      await until("the first action runs", () => records.length === 1);
      redis.pause();
      await sleep(LOCK_MS * 2.5);
      redis.resume();
      const process = await handle.result();
      expect(process.status).toBe("completed");
      expect(process.result).toEqual(new Done(5));
      expect(finished).toEqual(["paused-1 completed"]);
      // The first execution was stopped (its lease ran out during the outage) before a second began.
      const [first, ...later] = records;
      expect(first?.outcome).toBe("aborted");
      expect(later.length).toBeGreaterThan(0);
      for (const record of later)
        expect(record.start).toBeGreaterThanOrEqual(first?.end ?? Number.POSITIVE_INFINITY);
      for (const [index, record] of records.entries())
        for (const other of records.slice(index + 1))
          expect(other.start >= (record.end ?? 0) || (other.end ?? 0) <= record.start, "overlap").toBe(true);
      expect(warnings.some((line) => line.includes("stopped process paused-1"))).toBe(true);
    }, 30_000);

    it("refuses the checkpoint of a worker that lost its run: an action that ignores the abort cannot write over the new owner's checkpoint, and its run goes no further", async () => {
      const records: ActionRecord[] = [];
      const { platform, finished, raw, name } = await setup(
        redis,
        pipeline(records, { ms: 100, stubborn: 4_000 }),
      );
      const handle = await platform.startAgent("Pipeline", new Work(8), { id: "zombie-1" });
      await until("the stubborn action runs", () => records.length === 1);
      redis.pause();
      await sleep(LOCK_MS * 2);
      redis.resume();
      const process = await handle.result();
      expect(process.status).toBe("completed");
      expect(process.history.map((entry) => entry.actionName)).toEqual(["halve", "finish"]);
      const stored = await raw.get(`embabel:${name}:checkpoint:zombie-1`);
      // The stubborn first execution ends now, long after the run moved on; it tries to checkpoint.
      await until("the stubborn action ends", () => records[0]?.end !== undefined, 8_000);
      await sleep(500);
      expect(await raw.get(`embabel:${name}:checkpoint:zombie-1`)).toBe(stored);
      expect(JSON.parse(stored ?? "{}").status).toBe("completed");
      // The stale execution ran no further action, and the run finished once.
      expect(records.filter((record) => record.start > (records[0]?.end ?? 0))).toEqual([]);
      expect(finished).toEqual(["zombie-1 completed"]);
      expect((await platform.process("zombie-1"))?.status).toBe("completed");
    }, 30_000);
  });

  describe("a Redis down longer than the lock, restarted with AOF", () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis({ persistence: "aof" });
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it("continues the run from its checkpoint on one worker at a time and finishes it once", async () => {
      const records: ActionRecord[] = [];
      const { platform, finished } = await setup(redis, pipeline(records, { ms: 1_200 }));
      const handle = await platform.startAgent("Pipeline", new Work(8), { id: "aof-1" });
      await until("the first action runs", () => records.length === 1);
      await redis.restart({ downMs: LOCK_MS * 2 });
      const process = await handle.result();
      expect(process.status).toBe("completed");
      expect(process.result).toEqual(new Done(5));
      expect(process.history.map((entry) => entry.actionName)).toEqual(["halve", "finish"]);
      expect(finished).toEqual(["aof-1 completed"]);
      expect(records[0]?.outcome).toBe("aborted");
      for (const [index, record] of records.entries())
        for (const other of records.slice(index + 1))
          expect(other.start >= (record.end ?? 0) || (other.end ?? 0) <= record.start, "overlap").toBe(true);
      expect(warnings.some((line) => line.includes("stopped process aof-1"))).toBe(true);
    }, 30_000);
  });

  describe("a Redis that requires a password", () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis({ password: "s3cret-pw" });
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it("runs with the password in the URL, and a wrong one is refused without printing it", async () => {
      expect(redis.url).toMatch(/^redis:\/\/:s3cret-pw@127\.0\.0\.1:\d+$/);
      const { platform } = await setup(redis, pipeline([], { ms: 10 }));
      const process = await platform.runAgent("Pipeline", new Work(4));
      expect(process.result).toEqual(new Done(3));
      const wrong = redis.url.replace("s3cret-pw", "wrong-pw");
      const attempt = BullMqRunner.create({ connection: wrong });
      await expect(attempt).rejects.toThrow(
        /^Cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+: WRONGPASS/,
      );
      await expect(BullMqRunner.create({ connection: wrong })).rejects.not.toThrow(/wrong-pw/);
    });
  });

  describe("checkpoints, process ids and expiry", () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it("ends a run whose stored checkpoint is corrupt failed, naming the process and the problem; the caller's read is a CheckpointError", async () => {
      const records: ActionRecord[] = [];
      const { platform, raw, name } = await setup(redis, pipeline(records));
      await raw.set(`embabel:${name}:checkpoint:bad-1`, '{"format":2,"id":"bad-1","result":{"$ref":-1}}');
      const process = await platform.runAgent("Pipeline", new Work(2), { id: "bad-1" });
      expect(process.status).toBe("failed");
      expect(process.statusReason).toMatch(
        /^Cannot read the checkpoint of process bad-1: the field 'status' is missing or malformed/,
      );
      expect(records).toEqual([]);

      await raw.set(`embabel:${name}:checkpoint:bad-2`, "not json");
      const read = platform.process("bad-2");
      await expect(read).rejects.toSatisfy(CheckpointError.isInstance);
      await expect(platform.process("bad-2")).rejects.toThrow(
        /^Cannot read the checkpoint of process bad-2: it is not JSON/,
      );
    });

    it("continues a checkpoint stored under the job's id as that process, whatever id is written inside", async () => {
      const records: ActionRecord[] = [];
      const { platform, raw, name } = await setup(redis, pipeline(records));
      let checkpoint: unknown;
      const local = AgentPlatform.create({ models: {} });
      local.deploy(pipeline([]));
      await local.runAgent("Pipeline", new Work(6), {
        id: "someone-else",
        afterAction: (process) => {
          checkpoint = process.checkpoint();
          process.kill("moved");
        },
      });
      const { encodeCheckpoint } = await import("../src/distributed/checkpoint-codec.js");
      const { WireValues } = await import("../src/distributed/wire-value.js");
      const { TypeRegistry } = await import("../src/distributed/type-registry.js");
      const wire = new WireValues(TypeRegistry.of(local.agents));
      await raw.set(
        `embabel:${name}:checkpoint:mine-1`,
        encodeCheckpoint(checkpoint as Parameters<typeof encodeCheckpoint>[0], wire),
      );
      const process = await platform.runAgent("Pipeline", new Work(6), { id: "mine-1" });
      expect(process.id).toBe("mine-1");
      expect(process.status).toBe("completed");
      expect(process.result).toEqual(new Done(4));
      expect(records.map((record) => record.action)).toEqual(["finish"]);
      expect(await raw.exists(`embabel:${name}:checkpoint:someone-else`)).toBe(0);
    });

    it("returns the existing process for the same id and input, and refuses the id with another input", async () => {
      const records: ActionRecord[] = [];
      const { platform } = await setup(redis, pipeline(records));
      const first = await platform.runAgent("Pipeline", new Work(10), { id: "order-42" });
      expect(first.result).toEqual(new Done(6));
      const again = await platform.runAgent("Pipeline", new Work(10), { id: "order-42" });
      expect(again.id).toBe("order-42");
      expect(again.result).toEqual(new Done(6));
      expect(records.filter((record) => record.action === "halve")).toHaveLength(1);
      const other = platform.runAgent("Pipeline", new Work(100), { id: "order-42" });
      await expect(other).rejects.toSatisfy(ConfigurationError.isInstance);
      await expect(platform.runAgent("Pipeline", new Work(100), { id: "order-42" })).rejects.toThrow(
        /^Process id 'order-42' already names a run of agent 'Pipeline' with another input on queue 'outage\d+'\. A process id names one run/,
      );
      expect(records.filter((record) => record.action === "halve")).toHaveLength(1);
    });

    it("kills a run no worker has taken at once: its job leaves the queue and it ends killed", async () => {
      const name = `unserved${++queue}`;
      const runner = await BullMqRunner.create({ connection: redis.url, queue: name });
      closers.push(() => runner.close());
      const platform = AgentPlatform.create({ models: {}, runner });
      platform.deploy(pipeline([]));
      const raw = new Redis(redis.url);
      closers.push(async () => raw.disconnect());
      const handle = await platform.startAgent("Pipeline", new Work(2), { id: "unserved-1" });
      expect(await runner.jobState("unserved-1")).toBe("waiting");
      expect(await runner.workerCount()).toBe(0);
      const startedAt = Date.now();
      await handle.kill("Nobody came");
      const process = await handle.result();
      expect(Date.now() - startedAt).toBeLessThan(1_000);
      expect(process.status).toBe("killed");
      expect(process.statusReason).toBe("Nobody came");
      expect(await runner.jobState("unserved-1")).toBe("unknown");
      expect(await raw.llen(`bull:${name}:wait`)).toBe(0);
      expect((await platform.process("unserved-1"))?.status).toBe("killed");

      const controller = new AbortController();
      const aborted = platform.runAgent("Pipeline", new Work(3), { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("Ctrl-C")), 100);
      expect(await aborted).toMatchObject({ status: "killed", statusReason: "Ctrl-C" });
    });

    it("lets a job holding tool-call context expire with the run: removeOnComplete/removeOnFail ages of keepFinishedSeconds", async () => {
      const records: ActionRecord[] = [];
      const name = `expiry${++queue}`;
      const workerPlatform = AgentPlatform.create({ models: {} });
      const agent = pipeline(records, { ms: 10 });
      workerPlatform.deploy(agent);
      const worker = await AgentWorker.start({
        connection: redis.url,
        queue: name,
        platform: workerPlatform,
        keepFinishedSeconds: 1,
      });
      closers.push(() => worker.close({ force: true }));
      const runner = await BullMqRunner.create({
        connection: redis.url,
        queue: name,
        keepFinishedSeconds: 1,
      });
      closers.push(() => runner.close());
      const platform = AgentPlatform.create({ models: {}, runner });
      platform.deploy(agent);
      const raw = new Redis(redis.url);
      closers.push(async () => raw.disconnect());
      const options = ProcessOptions.DEFAULT.withToolCallContext({ authToken: "ctx-SECRET-token-42" });
      await platform.runAgent("Pipeline", new Work(2), { id: "secret-1", processOptions: options });
      expect(await raw.hget(`bull:${name}:secret-1`, "data")).toContain("ctx-SECRET-token-42");
      expect(await raw.ttl(`embabel:${name}:checkpoint:secret-1`)).toBeLessThanOrEqual(1);
      await sleep(1_100);
      // BullMQ removes completed jobs older than the age when the next job of the queue finishes.
      await platform.runAgent("Pipeline", new Work(4), { id: "later-1" });
      expect(await raw.exists(`bull:${name}:secret-1`)).toBe(0);
      expect(await raw.exists(`embabel:${name}:checkpoint:secret-1`)).toBe(0);
      const keys = await raw.keys("*");
      for (const key of keys) {
        const type = await raw.type(key);
        if (type === "string") expect(await raw.get(key)).not.toContain("ctx-SECRET");
        if (type === "hash") expect(JSON.stringify(await raw.hgetall(key))).not.toContain("ctx-SECRET");
      }
    });
  });
});
