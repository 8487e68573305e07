import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// `embabel-ts waiting` / `respond` with a user's own agent module
// (test/fixtures/waits/pay-desk.mjs): the answer is stored and the command
// returns ("answered; queued for a worker") even with no worker alive;
// `--wait <s>` prints how the run ended, and SIGTERM stops that wait; the
// answer command `run` prints carries --queue and works as printed; a run
// whose types are unknown here, or a damaged checkpoint, never breaks
// `waiting` for the queue.

const MODULE = join(root, "test/fixtures/waits/pay-desk.mjs");
const ENV = { NO_COLOR: "1" };

function startWorker(url: string, queue: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [main, "worker", MODULE, "--redis", url, "--queue", queue, "--scripted"],
      { cwd: root, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
      if (stdout.includes(`worker ${child.pid} `)) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

describe.skipIf(!hasRedisServer)("embabel-ts waiting and respond with a user's module", () => {
  let redis: TestRedis;
  let raw: Redis;
  const children: ChildProcess[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: the built library, imported at run time
  const platforms: any[] = [];

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    raw = new Redis(redis.url, { maxRetriesPerRequest: null });
  }, 180_000);

  afterAll(async () => {
    for (const platform of platforms) await platform.close().catch(() => {});
    await Promise.all(children.map(stop));
    raw?.disconnect();
    await redis?.stop();
  });

  /** Runs waiting for approval on `queue`, with no worker left alive. */
  async function waitingRuns(queue: string, count: number): Promise<string[]> {
    const worker = await startWorker(redis.url, queue);
    children.push(worker);
    const library = await import(pathToFileURL(join(root, "dist/src/index.js")).href);
    const distributed = await import(pathToFileURL(join(root, "dist/src/distributed/index.js")).href);
    const desk = await import(pathToFileURL(MODULE).href);
    const runner = await distributed.BullMqRunner.create({ connection: redis.url, queue });
    const platform = library.AgentPlatform.create({ models: {}, runner });
    platforms.push(platform);
    platform.deploy(desk.payDesk);
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const handle = await platform.startAgent(
        "PayDesk",
        desk.PayRequest.create({ tag: `${queue}${n}`, cents: 10 }),
      );
      expect((await handle.result()).status).toBe("waiting");
      ids.push(handle.id);
    }
    await stop(worker);
    return ids;
  }

  it("waiting lists a module's runs without the module (from their plain requests) and skips a damaged checkpoint", async () => {
    const [id] = await waitingRuns("plain", 1);
    // A damaged checkpoint on the same queue: a warning, not a failed command.
    await raw.set("embabel:plain:checkpoint:damaged", "{not json");
    await raw.sadd("embabel:plain:waiting", "damaged");
    const listed = await cli(["waiting", "--redis", redis.url, "--queue", "plain"], ENV);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('? r1 approve pay({"tag":"plain0","cents":10})');
    expect(listed.stdout).toContain("Pay 10 cents for plain0?");
    expect(listed.stdout).toContain(`--redis ${redis.url} --queue plain`);
    expect(listed.stderr).toMatch(
      /Skipping waiting process damaged: Cannot read the checkpoint of process damaged: it is not JSON/,
    );

    const withModule = await cli(["waiting", MODULE, "--redis", redis.url, "--queue", "plain"], ENV);
    expect(withModule.code).toBe(0);
    expect(withModule.stdout).toContain(`${id} PayDesk`);
    expect(withModule.stdout).toContain(`respond ${MODULE} <process-id>`);
  }, 60_000);

  it("respond returns once the answer is stored, with no worker alive; a worker started later finishes the run", async () => {
    const [id = ""] = await waitingRuns("later", 1);
    const started = Date.now();
    const answered = await cli(
      [
        "respond",
        MODULE,
        id,
        "r1",
        "approve",
        "--input",
        '{"tag":"later0","cents":7}',
        "--redis",
        redis.url,
        "--queue",
        "later",
      ],
      ENV,
    );
    expect(answered.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answered.stdout).toContain("answered; queued for a worker");
    expect(answered.stderr).toContain(
      `no worker is connected to queue 'later'; the run continues when one starts: embabel-ts worker ${MODULE} --redis ${redis.url} --queue later`,
    );
    // The request is answered: a second answer is refused.
    const again = await cli(["respond", id, "r1", "deny", "--redis", redis.url, "--queue", "later"], ENV);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Process ${id} has no open request 'r1' (open: [])`);

    children.push(await startWorker(redis.url, "later"));
    const deadline = Date.now() + 20_000;
    let status = "";
    while (Date.now() < deadline) {
      const text = await raw.get(`embabel:later:checkpoint:${id}`);
      status = (JSON.parse(text ?? "{}") as { status?: string }).status ?? "";
      if (status === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe("completed");
    expect(await raw.get(`embabel:later:checkpoint:${id}`)).toContain("paid 7 for later0");
  }, 60_000);

  it("respond --wait gives up after its seconds, and SIGTERM ends the wait at once; the answer stays stored", async () => {
    const [first, second] = await waitingRuns("nobody", 2);
    const timedOut = await cli(
      ["respond", first as string, "r1", "approve", "--wait", "1", "--redis", redis.url, "--queue", "nobody"],
      ENV,
    );
    expect(timedOut.code).toBe(0);
    expect(timedOut.stderr).toContain(
      "not finished after 1 s; the answer is stored and a worker continues the run.",
    );

    const child = spawn(
      process.execPath,
      [
        main,
        "respond",
        second as string,
        "r1",
        "deny",
        "--reason",
        "no",
        "--wait",
        "60",
        "--redis",
        redis.url,
        "--queue",
        "nobody",
      ],
      { cwd: root, env: { PATH: process.env.PATH ?? "", ...ENV }, stdio: ["ignore", "pipe", "pipe"] },
    );
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    const deadline = Date.now() + 15_000;
    while (!stdout.includes("answered; queued for a worker") && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const signalledAt = Date.now();
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(3_000);
    expect(stderr).toContain("stopped waiting; the answer is stored");
    const stored = JSON.parse((await raw.get(`embabel:nobody:checkpoint:${second}`)) ?? "{}");
    expect(stored.waiting.open).toEqual([]);
  }, 60_000);

  it("a bad edit is refused naming the field, and the run keeps waiting", async () => {
    const [id] = await waitingRuns("bad", 1);
    const refused = await cli(
      [
        "respond",
        id as string,
        "r1",
        "approve",
        "--input",
        '{"tag":"bad0","cents":"lots"}',
        "--redis",
        redis.url,
        "--queue",
        "bad",
      ],
      ENV,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /error: Request r1 of process .*: the edited input does not match tool 'pay''s schema: .*cents/,
    );
    const listed = await cli(["waiting", "--redis", redis.url, "--queue", "bad"], ENV);
    expect(listed.stdout).toContain(id);
  }, 60_000);

  it("run prints an answer command carrying --queue, which works as printed (--wait shows the end)", async () => {
    children.push(await startWorker(redis.url, "printed"));
    const run = await cli(
      ["run", MODULE, '{"tag":"p1","cents":42}', "--redis", redis.url, "--queue", "printed"],
      ENV,
    );
    expect(run.code).toBe(3);
    const line = run.stderr.split("\n").find((each) => each.includes("answer: embabel-ts respond"));
    // The run's module, then its process id: the command works as printed.
    expect(line).toMatch(
      /answer: embabel-ts respond \S+pay-desk\.mjs \S+ r1 approve\|deny .* --redis \S+ --queue printed$/,
    );
    const args = (line as string)
      .replace(/^.*answer: embabel-ts /, "")
      .replace("approve|deny [--reason <r>] [--input '<json>']", "approve --wait 30")
      .split(" ");
    const answered = await cli(args, ENV);
    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain("answered; queued for a worker");
    expect(answered.stdout).toContain("completed");
    expect(answered.stdout).toContain("paid 42 for p1");
  }, 60_000);
});
