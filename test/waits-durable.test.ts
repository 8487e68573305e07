import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// Waits that survive anything: 20 refund-desk runs on `embabel-ts worker`
// processes (the built CLI, --scripted) wait for approval of their refund;
// every worker is killed with SIGKILL; the runs are answered (each with its
// own edited amount) while no worker runs; a new worker starts, and every run
// completes once, with the answered amount, no LLM call repeated and the
// refund tool run once.

const RUNS = 20;

interface WorkerChild {
  readonly child: ChildProcess;
  readonly pid: number;
}

function startWorker(url: string): Promise<WorkerChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [main, "worker", "--redis", url, "--scripted", "--concurrency", "4", "--stalled-interval", "500"],
      { cwd: root, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
      if (stdout.includes(`worker ${child.pid} `)) resolve({ child, pid: child.pid as number });
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready: ${stderr}`)));
  });
}

function killed(worker: WorkerChild): Promise<void> {
  return new Promise((resolve) => {
    if (worker.child.exitCode !== null || worker.child.signalCode !== null) return resolve();
    worker.child.once("exit", () => resolve());
    worker.child.kill("SIGKILL");
  });
}

describe.skipIf(!hasRedisServer)("waits with BullMqRunner", () => {
  let redis: TestRedis;
  const workers: WorkerChild[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: the built library, imported at run time
  let platform: any;

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
  }, 180_000);

  afterAll(async () => {
    await platform?.close().catch(() => {});
    await Promise.all(workers.map(killed));
    await redis?.stop();
  });

  it("20 waiting runs survive SIGKILL of every worker and complete once with the answered values", async () => {
    workers.push(await startWorker(redis.url), await startWorker(redis.url));
    const library = await import(pathToFileURL(join(root, "dist/src/index.js")).href);
    const distributed = await import(pathToFileURL(join(root, "dist/src/distributed/index.js")).href);
    const desk = await import(pathToFileURL(join(root, "dist/examples/refund-desk/index.js")).href);
    const input = await import(pathToFileURL(join(root, "dist/examples/user-input.js")).href);
    const runner = await distributed.BullMqRunner.create({ connection: redis.url });
    platform = library.AgentPlatform.create({ models: {}, runner });
    platform.deploy(desk.RefundDesk);

    const handles = await Promise.all(
      Array.from({ length: RUNS }, (_, n) =>
        platform.startAgent(
          "RefundDesk",
          input.UserInput.create({ content: `Refund order A-1001 please (#${n})` }),
        ),
      ),
    );
    // result() resolves once the run waits: its worker has let go of it (8 slots served 20 waiting runs).
    const waiting = await Promise.all(handles.map((handle: { result(): Promise<never> }) => handle.result()));
    for (const process of waiting as { status: string; awaiting: { id: string; toolName: string }[] }[]) {
      expect(process.status).toBe("waiting");
      expect(process.awaiting).toEqual([expect.objectContaining({ id: "r1", toolName: "issue_refund" })]);
    }
    expect((await runner.waitingProcesses(platform)).length).toBe(RUNS);

    await Promise.all(workers.splice(0).map(killed));

    // A bad answer is the responder's error and changes nothing.
    await expect(platform.respond(handles[0].id, "r1", { approved: "yes" })).rejects.toThrow(/'approved'/);
    // Answered with no worker alive: each answer lands in Redis and queues the run's resume.
    const answered = Promise.all(
      handles.map((handle: { id: string }, n: number) =>
        platform.respond(handle.id, "r1", {
          approved: true,
          input: { orderId: "A-1001", cents: 100 + n, reason: `answer ${n}` },
        }),
      ),
    );
    workers.push(await startWorker(redis.url));
    const done = (await answered) as {
      status: string;
      result: { refundedCents: number };
      llmInvocations: number;
      history: { actionName: string; outcome: string }[];
      blackboard: { objects: unknown[] };
    }[];
    for (const [n, process] of done.entries()) {
      expect(process.status, `run ${n}`).toBe("completed");
      expect(process.result.refundedCents).toBe(100 + n);
      // lookup_order, issue_refund, the answer: the approved round was not asked again.
      expect(process.llmInvocations).toBe(3);
      expect(process.history.map((entry) => [entry.actionName, entry.outcome])).toEqual([
        ["handleRequest", "succeeded"],
      ]);
      // The refund tool ran once.
      expect(process.blackboard.objects.filter((object) => desk.Refund.is(object))).toHaveLength(1);
    }
    expect(await runner.waitingProcesses(platform)).toEqual([]);
    await expect(platform.respond(handles[0].id, "r1", { approved: true })).rejects.toThrow(/is not waiting/);
  }, 120_000);
});
