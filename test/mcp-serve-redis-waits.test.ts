import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// `embabel-ts mcp-serve --redis`: the served agents run on workers, and a run
// waiting for a person is kept in Redis. A client without elicitation gets the
// request's id; that server process goes away; a client of another server
// process answers with respond_to_request, and gets the finished result.

type CallResult = Awaited<ReturnType<Client["callTool"]>>;
const text = (result: CallResult) => (result.content as { text: string }[]).map((part) => part.text).join("");

describe.skipIf(!hasRedisServer)("embabel-ts mcp-serve --redis and an agent that waits", () => {
  let redis: TestRedis;
  let worker: ChildProcess | undefined;
  const clients: Client[] = [];

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    worker = spawn(process.execPath, [main, "worker", "--redis", redis.url, "--queue", "mcp", "--scripted"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve) => {
      let out = "";
      worker?.stdout?.on("data", (chunk) => {
        out += chunk;
        if (out.includes(`worker ${worker?.pid} `)) resolve();
      });
    });
  }, 180_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker?.once("exit", resolve));
      worker.kill("SIGKILL");
      await exited;
    }
    await redis?.stop();
  });

  async function served(): Promise<Client> {
    const client = new Client({ name: "no-elicitation", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [main, "mcp-serve", "--redis", redis.url, "--queue", "mcp"],
        cwd: root,
        env: { PATH: process.env.PATH ?? "" },
        stderr: "ignore",
      }),
    );
    clients.push(client);
    return client;
  }

  it("a wait started through one server process is answered through another", async () => {
    const first = await served();
    const waiting = await first.callTool({
      name: "RefundDesk",
      arguments: { content: "My telescope (order A-1001) arrived dented. Please refund me." },
    });
    expect(waiting.isError).toBe(true);
    const [, requestId] = /Request id: (\S+)\./.exec(text(waiting)) ?? [];
    expect(requestId, text(waiting)).toMatch(/^[0-9a-f-]{36}\/r1$/);
    await first.close(); // that server process exits

    const second = await served();
    const bad = await second.callTool({
      name: "respond_to_request",
      arguments: { requestId, approve: true, input: '{"orderId":"A-1001","cents":-3,"reason":"x"}' },
    });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/cents.*The request stays open\./);

    const done = await second.callTool({
      name: "respond_to_request",
      arguments: { requestId, approve: true, input: '{"orderId":"A-1001","cents":4100,"reason":"dented"}' },
    });
    expect(done.isError, text(done)).toBeFalsy();
    expect(text(done)).toContain('"refundedCents":4100');

    const again = await second.callTool({
      name: "respond_to_request",
      arguments: { requestId, approve: true },
    });
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/is not waiting|no open request/);
  }, 90_000);
});
