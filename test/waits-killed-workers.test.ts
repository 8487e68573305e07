import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// The durable-approval proof: 100 runs of a user's own agent module
// (test/fixtures/waits/pay-desk.mjs) wait for approval of a payment across 3
// real `embabel-ts worker <module>` processes; every worker is killed with
// SIGKILL; every run is answered while no worker is alive (half approved as
// asked, half with an edited amount; one edit is invalid first and the run
// keeps waiting); 3 new workers start. All 100 complete, and the side-effect
// log shows each approved payment made exactly once with its approved amount.

const RUNS = 100;
const QUEUE = "killed-workers";
const MODULE = join(root, "test/fixtures/waits/pay-desk.mjs");

interface WorkerChild {
  readonly child: ChildProcess;
  readonly out: () => string;
}

function startWorker(url: string, log: string): Promise<WorkerChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [main, "worker", MODULE, "--redis", url, "--queue", QUEUE, "--scripted", "--concurrency", "50"],
      { cwd: root, env: { PATH: process.env.PATH ?? "", PAY_LOG: log }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
      if (stdout.includes(`worker ${child.pid} `)) resolve({ child, out: () => stdout });
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready: ${stderr}`)));
  });
}

function killed(worker: WorkerChild): Promise<void> {
  return new Promise((resolve) => {
    const { child } = worker;
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

describe.skipIf(!hasRedisServer)("approvals survive SIGKILL of every worker", () => {
  let redis: TestRedis;
  let dir: string;
  const workers: WorkerChild[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: the built library, imported at run time
  let platform: any;

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), "embabel-killed-"));
  }, 180_000);

  afterAll(async () => {
    await platform?.close().catch(() => {});
    await Promise.all(workers.map(killed));
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("100 waiting runs complete once each, with the approved input, after every worker was killed", async () => {
    const log = join(dir, "payments.log");
    writeFileSync(log, "");
    workers.push(...(await Promise.all([1, 2, 3].map(() => startWorker(redis.url, log)))));
    const library = await import(pathToFileURL(join(root, "dist/src/index.js")).href);
    const distributed = await import(pathToFileURL(join(root, "dist/src/distributed/index.js")).href);
    const desk = await import(pathToFileURL(MODULE).href);
    const runner = await distributed.BullMqRunner.create({ connection: redis.url, queue: QUEUE });
    platform = library.AgentPlatform.create({ models: {}, runner });
    platform.deploy(desk.payDesk);

    const handles = await Promise.all(
      Array.from({ length: RUNS }, (_, n) =>
        platform.startAgent("PayDesk", desk.PayRequest.create({ tag: `t${n}`, cents: 100 + n })),
      ),
    );
    const waiting = await Promise.all(
      handles.map((handle: { result(): Promise<unknown> }) => handle.result()),
    );
    for (const [n, process] of (waiting as { status: string; awaiting: unknown[] }[]).entries()) {
      expect(process.status, `run ${n}`).toBe("waiting");
      expect(process.awaiting).toEqual([
        expect.objectContaining({ id: "r1", toolName: "pay", arguments: { tag: `t${n}`, cents: 100 + n } }),
      ]);
    }
    // The runs were spread over the workers; nothing was paid before an answer.
    expect(readFileSync(log, "utf8")).toBe("");
    expect((await runner.waitingProcesses(platform)).length).toBe(RUNS);

    await Promise.all(workers.splice(0).map(killed));

    // An edit the tool's schema refuses is an InvalidResponseError; the run keeps waiting.
    await expect(
      runner.answer(handles[0].id, "r1", { approved: true, input: { tag: "t0", cents: 999_999 } }),
    ).rejects.toThrow(/cents/);
    // Every answer is stored with no worker alive: even runs approved as asked, odd ones edited.
    const approved = new Map<string, number>();
    const jobs = await Promise.all(
      handles.map(async (handle: { id: string }, n: number) => {
        const edited = n % 2 === 1;
        const cents = edited ? 2_000 + n : 100 + n;
        approved.set(`t${n}`, cents);
        const stored = await runner.answer(
          handle.id,
          "r1",
          edited ? { approved: true, input: { tag: `t${n}`, cents } } : { approved: true },
        );
        expect(stored.open).toEqual([]);
        return stored.resumeJobId as string;
      }),
    );
    // A second answer to the same request is refused: the first one stands.
    await expect(runner.answer(handles[1].id, "r1", { approved: false })).rejects.toThrow(
      /is not waiting|no open request/,
    );
    expect(readFileSync(log, "utf8")).toBe("");

    workers.push(...(await Promise.all([1, 2, 3].map(() => startWorker(redis.url, log)))));
    const done = await Promise.all(
      handles.map((handle: { id: string }, n: number) => runner.resumed(handle.id, jobs[n], platform)),
    );
    for (const [n, process] of (
      done as { status: string; result: { tag: string; reply: string } }[]
    ).entries()) {
      expect(process.status, `run ${n}`).toBe("completed");
      expect(process.result.reply).toBe(`done: "paid ${approved.get(`t${n}`)} for t${n}"`);
    }
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toHaveLength(RUNS);
    const paid = new Map(lines.map((line) => line.split(" ") as [string, string]));
    expect(paid.size).toBe(RUNS); // none twice
    for (const [tag, cents] of approved) expect(Number(paid.get(tag)), tag).toBe(cents); // none lost, as approved
    expect(await runner.waitingProcesses(platform)).toEqual([]);
  }, 90_000);
});
