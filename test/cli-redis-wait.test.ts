import { type ChildProcess, spawn } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// `embabel-ts run --redis` when no worker serves the queue, or Redis goes away:
// it says it is waiting, a first Ctrl-C or SIGTERM cancels the queued run and
// exits, --wait-timeout gives up on its own, and an outage is one line per
// change (a run lost with Redis is an error naming it), never a hang.

interface Running {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  /** When the run's banner (printed just before it is queued) appeared. */
  queuedAt?: number;
  readonly exited: Promise<{ code: number | null; at: number }>;
}

function run(args: readonly string[]): Running {
  const child = spawn(process.execPath, [main, "run", "star-news", "Lynda, a Scorpio", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const running: Running = {
    child,
    stdout: "",
    stderr: "",
    exited: new Promise((resolve) => child.once("close", (code) => resolve({ code, at: Date.now() }))),
  };
  child.stdout?.on("data", (chunk) => {
    running.stdout += chunk;
    if (running.queuedAt === undefined && running.stdout.includes("queued on")) running.queuedAt = Date.now();
  });
  child.stderr?.on("data", (chunk) => {
    running.stderr += chunk;
  });
  return running;
}

async function until(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now();
}

describe.skipIf(!hasRedisServer)("embabel-ts run --redis with no worker", () => {
  let redis: TestRedis;
  let raw: Redis;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    raw = new Redis(redis.url, { maxRetriesPerRequest: null });
    raw.on("error", () => {});
  }, 180_000);

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    raw?.disconnect();
    await redis?.stop();
  });

  it.each([
    ["SIGINT", "Interrupted (Ctrl-C)"],
    ["SIGTERM", "Terminated (SIGTERM)"],
  ] as const)(
    "says within 2 s that it waits; the first %s cancels the queued run and exits",
    async (signal, reason) => {
      const queue = `nobody-${signal}`;
      const running = run(["--redis", redis.url, "--queue", queue]);
      children.push(running.child);
      const waiting = `waiting for a worker on queue '${queue}' (no worker seen)`;
      const saidAt = await until("it says it is waiting", () => running.stderr.includes(waiting));
      expect(saidAt - (running.queuedAt ?? 0)).toBeLessThan(2_000);
      expect(await raw.llen(`bull:${queue}:wait`)).toBe(1);

      const signalledAt = Date.now();
      running.child.kill(signal);
      const { code, at } = await running.exited;
      expect(code).toBe(1);
      expect(at - signalledAt).toBeLessThan(3_000);
      expect(running.stderr).toContain(`killed: ${reason}`);
      // The run left the queue: a worker started later does not pick it up.
      expect(await raw.llen(`bull:${queue}:wait`)).toBe(0);
      expect(running.stderr).not.toMatch(/\n\s+at /);
    },
    30_000,
  );

  it("gives up after --wait-timeout, saying how to start a worker", async () => {
    const running = run(["--redis", redis.url, "--queue", "late", "--wait-timeout", "1"]);
    children.push(running.child);
    const { code } = await running.exited;
    expect(code).toBe(1);
    expect(running.stderr).toContain("waiting for a worker on queue 'late' (no worker seen)");
    expect(running.stderr).toContain(
      `killed: No worker took the run within 1 s on queue 'late'. Start one: embabel-ts worker --redis ${redis.url} --queue late`,
    );
    expect(await raw.llen("bull:late:wait")).toBe(0);
  }, 30_000);

  it("prints one line when Redis goes and one when it is back, no stack traces; a run lost with it is an error naming it", async () => {
    const running = run(["--redis", redis.url, "--queue", "outage", "--stalled-interval", "500"]);
    children.push(running.child);
    await until("it says it is waiting", () =>
      running.stderr.includes("waiting for a worker on queue 'outage'"),
    );
    await redis.restart({ downMs: 1_500 }); // no persistence: the queued run is gone
    const { code } = await running.exited;
    expect(code).toBe(1);
    const lines = running.stderr.trim().split("\n");
    expect(lines.filter((line) => line.includes("is unreachable"))).toHaveLength(1);
    expect(lines.filter((line) => line.includes("is reachable again"))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(
      /^error: Process [0-9a-f-]{36} is lost: its job is gone from queue 'outage' in Redis/,
    );
    expect(running.stderr).not.toMatch(/\n\s+at /);
    expect(running.stderr).not.toContain("Unhandled error");
  }, 30_000);
});

describe.skipIf(!hasRedisServer)("embabel-ts worker and run over TLS (rediss://)", () => {
  let redis: TestRedis;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis({ tls: true });
  }, 180_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill("SIGKILL");
    await redis?.stop();
  });

  it("runs on a worker when the server's CA is trusted, and says how to trust it when not", async () => {
    expect(redis.url).toMatch(/^rediss:\/\/127\.0\.0\.1:\d+$/);
    const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1", NODE_EXTRA_CA_CERTS: redis.caFile ?? "" };
    worker = spawn(process.execPath, [main, "worker", "--redis", redis.url, "--scripted", "--queue", "tls"], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let workerOut = "";
    worker.stdout?.on("data", (chunk) => {
      workerOut += chunk;
    });
    await until("the worker is ready", () => workerOut.includes("agents [StarNewsWriter"), 30_000);
    const queued = await cli(
      ["run", "star-news", "Lynda, a Scorpio", "--redis", redis.url, "--queue", "tls"],
      {
        NO_COLOR: "1",
        NODE_EXTRA_CA_CERTS: redis.caFile ?? "",
      },
    );
    expect(queued.code).toBe(0);
    expect(queued.stdout).toContain("Lynda's stars:");

    const untrusted = await cli(["run", "star-news", "--redis", redis.url]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr.trim().split("\n").at(-1)).toMatch(
      /^error: Cannot reach Redis at rediss:\/\/127\.0\.0\.1:\d+: self-signed certificate in certificate chain\. Trust the CA that signed the server's certificate \(NODE_EXTRA_CA_CERTS=\/path\/ca\.pem\), or fix the URL\.$/,
    );
  }, 60_000);
});
