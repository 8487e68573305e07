import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  AgentPlatform,
  createMcpServer,
  defineAgent,
  domainType,
  serveMcpOverHttp,
  Tool,
  ToolResult,
  WaitFor,
} from "../src/index.js";
import { CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { mcpServeUrl } from "./support/mcp-serve-url.js";
import { type JsonRpcAnswer, modernToolCall, resultText } from "./support/modern-mcp-post.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// Human in the loop over MCP 2026-07-28, durable: `embabel-ts mcp-serve
// <module> --redis --http 0` processes sharing a state secret and a Redis, a
// worker running the user's agent (test/fixtures/waits/pay-desk.mjs: its `pay`
// tool needs a person's approval and appends one line to PAY_LOG each time it
// really runs). A served agent that waits answers `input_required` with the
// approval form and a signed state naming the waiting process; the answer
// reaches another server process (the first one killed meanwhile), which
// answers the wait in Redis and returns the agent's result. Raw POSTs, no
// session, no sticky routing: each request goes where the test sends it.

const MODULE = join(root, "test/fixtures/waits/pay-desk.mjs");
const TWO_ROUND_SERVER = join(root, "test/fixtures/mcp/two-round-server.mjs");
const QUEUE = "durable-input";
const SECRET = "the-secret-every-mcp-serve-process-shares-0123456789";

type Children = ChildProcess[];

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** The `wait` (or `approval`) form of an `input_required` result, and its state. */
function inputRequired(answer: JsonRpcAnswer, key: string) {
  const result = answer.result as {
    resultType?: string;
    inputRequests?: Record<string, { method: string; params: { message: string; requestedSchema: unknown } }>;
    requestState?: string;
  };
  expect(result?.resultType, JSON.stringify(answer)).toBe("input_required");
  const form = result.inputRequests?.[key];
  expect(form?.method).toBe("elicitation/create");
  return { message: form?.params.message ?? "", state: result.requestState as string };
}

describe.skipIf(!hasRedisServer)("mcp-serve --redis: a waiting agent answered over input_required", () => {
  let redis: TestRedis;
  let dir: string;
  let payLog: string;
  const children: Children = [];

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), "embabel-durable-input-"));
    payLog = join(dir, "pay.log");
    writeFileSync(payLog, "");
    const worker = spawn(
      process.execPath,
      [main, "worker", MODULE, "--redis", redis.url, "--queue", QUEUE, "--scripted"],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", PAY_LOG: payLog },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    children.push(worker);
    await new Promise<void>((resolve, reject) => {
      let out = "";
      worker.stdout?.on("data", (chunk) => {
        out += chunk;
        if (out.includes(`worker ${worker.pid} `)) resolve();
      });
      worker.once("exit", (code) => reject(new Error(`worker exited (${code})`)));
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(children.map(stopped));
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** One `mcp-serve <module> --redis --http 0` process; its URL and the child. */
  async function serveProcess(secret = SECRET): Promise<{ url: string; child: ChildProcess }> {
    const child: ChildProcessWithoutNullStreams = spawn(
      process.execPath,
      [main, "mcp-serve", MODULE, "--redis", redis.url, "--queue", QUEUE, "--http", "0"],
      { cwd: root, env: { PATH: process.env.PATH ?? "", EMBABEL_MCP_STATE_SECRET: secret } },
    );
    children.push(child);
    child.stderr.resume();
    return { url: await mcpServeUrl(child), child };
  }

  const payments = () => readFileSync(payLog, "utf8").split("\n").filter(Boolean);

  it("an approval over input_required answered after the serving process was replaced runs the tool once, with the approved input", async () => {
    const first = await serveProcess();
    const round1 = await modernToolCall(first.url, "PayDesk", { arguments: { tag: "t1", cents: 100 } });
    const asked = inputRequired(round1, "wait");
    expect(asked.message).toContain("Pay 100 cents for t1?");
    expect(payments()).toEqual([]);

    // The process that asked is gone; another, sharing the secret and Redis, takes the retry.
    await stopped(first.child);
    const [second, third] = await Promise.all([serveProcess(), serveProcess()]);
    const edited = { approve: true, input: JSON.stringify({ tag: "t1", cents: 250 }) };
    const retry = {
      inputResponses: { wait: { action: "accept", content: edited } },
      requestState: asked.state,
    };
    const done = await modernToolCall(second.url, "PayDesk", {
      arguments: { tag: "t1", cents: 100 },
      ...retry,
    });
    expect(done.result?.isError, JSON.stringify(done)).toBeFalsy();
    expect(resultText(done.result)).toContain("paid 250 for t1");
    expect(payments()).toEqual(["t1 250"]);

    // The same answer replayed to a third process: the run as it is now, the tool not run again.
    const replayed = await modernToolCall(third.url, "PayDesk", {
      arguments: { tag: "t1", cents: 100 },
      ...retry,
    });
    expect(replayed.result?.resultType ?? "complete").toBe("complete");
    expect(resultText(replayed.result)).toContain("paid 250 for t1");
    expect(payments()).toEqual(["t1 250"]);
  }, 120_000);

  it("a declined approval is not run; an answer that is not one is asked again, saying why", async () => {
    const [one, two] = await Promise.all([serveProcess(), serveProcess()]);
    const round1 = await modernToolCall(one.url, "PayDesk", { arguments: { tag: "t2", cents: 300 } });
    const asked = inputRequired(round1, "wait");
    // Edited arguments the tool's schema refuses (over 5000 cents): asked again, in a new round.
    const refused = await modernToolCall(two.url, "PayDesk", {
      arguments: { tag: "t2", cents: 300 },
      inputResponses: {
        wait: { action: "accept", content: { approve: true, input: '{"tag":"t2","cents":9000}' } },
      },
      requestState: asked.state,
    });
    const again = inputRequired(refused, "wait");
    expect(again.message).toMatch(/Asked again: the answer was refused: .*cents/);
    expect(again.state).not.toBe(asked.state);
    const declined = await modernToolCall(one.url, "PayDesk", {
      arguments: { tag: "t2", cents: 300 },
      inputResponses: { wait: { action: "decline" } },
      requestState: again.state,
    });
    expect(declined.result?.resultType ?? "complete", JSON.stringify(declined)).toBe("complete");
    expect(resultText(declined.result)).toContain("declined in the MCP client");
    expect(payments().filter((line) => line.startsWith("t2"))).toEqual([]);
  }, 120_000);

  it("refuses a forged state, and one signed with another secret, with a clear error", async () => {
    const [one, stranger] = await Promise.all([
      serveProcess(),
      serveProcess("the-secret-of-another-deployment-0123456789-abcdef"),
    ]);
    const round1 = await modernToolCall(one.url, "PayDesk", { arguments: { tag: "t3", cents: 400 } });
    const { state } = inputRequired(round1, "wait");
    const approve = { wait: { action: "accept", content: { approve: true } } };
    const forged = `${state.slice(0, 12)}${state[12] === "A" ? "B" : "A"}${state.slice(13)}`;
    for (const [url, requestState] of [
      [one.url, forged],
      [stranger.url, state],
    ] as const) {
      const refused = await modernToolCall(url, "PayDesk", {
        arguments: { tag: "t3", cents: 400 },
        inputResponses: approve,
        requestState,
      });
      expect(refused.error?.code, JSON.stringify(refused)).toBe(-32602);
      expect(refused.error?.message).toMatch(/Invalid or expired requestState/);
    }
    expect(payments().filter((line) => line.startsWith("t3"))).toEqual([]);
  }, 120_000);
});

describe.skipIf(!hasRedisServer)("served approvals on 2026-07-28 with a nonce store in Redis", () => {
  let redis: TestRedis;
  const children: Children = [];

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(children.map(stopped));
    await redis?.stop();
  });

  function serveProcess(): Promise<string> {
    const child = spawn(process.execPath, [TWO_ROUND_SERVER], {
      env: { PATH: process.env.PATH ?? "", EMBABEL_TEST_STATE_SECRET: SECRET, EMBABEL_TEST_REDIS: redis.url },
    });
    children.push(child);
    child.stderr.resume();
    return mcpServeUrl(child);
  }

  it("a replayed answer to a second process does not run the call twice", async () => {
    const [first, second, third] = await Promise.all([serveProcess(), serveProcess(), serveProcess()]);
    const { state } = inputRequired(await modernToolCall(first, "pay", {}), "approval");
    const retry = {
      inputResponses: { approval: { action: "accept", content: { approve: true } } },
      requestState: state,
    };
    const paid = await modernToolCall(second, "pay", retry);
    expect(resultText(paid.result)).toMatch(/^paid by process \d+$/);
    // Replayed to another process: the nonce is taken in Redis, so the person is asked anew.
    const replayed = await modernToolCall(third, "pay", retry);
    inputRequired(replayed, "approval");
    expect(resultText(replayed.result)).not.toContain("paid");
  }, 60_000);
});

describe("an expired state", () => {
  it("is refused with a clear error, and the call does not run", async () => {
    let runs = 0;
    const pay = Tool.requireApproval(
      Tool.create("pay", "Pays", async () => {
        runs++;
        return ToolResult.text("paid");
      }),
      { message: "Pay?" },
    );
    const endpoint = await serveMcpOverHttp(() => createMcpServer({ name: "expiry", tools: [pay] }));
    try {
      const { state } = inputRequired(await modernToolCall(endpoint.url, "pay", {}), "approval");
      // Two hours later (the state is signed for one): only Date moves, the sockets' timers are real.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3_600_000 });
      const late = await modernToolCall(endpoint.url, "pay", {
        inputResponses: { approval: { action: "accept", content: { approve: true } } },
        requestState: state,
      });
      expect(late.error?.code, JSON.stringify(late)).toBe(-32602);
      expect(late.error?.message).toMatch(/Invalid or expired requestState/);
      expect(runs).toBe(0);
    } finally {
      vi.useRealTimers();
      await endpoint.close();
    }
  });
});

describe("a served agent that waits twice, in one process (no Redis)", () => {
  it("asks its form, then its confirmation, each as input_required; the last retry returns its result", async () => {
    const Order = domainType("Order", z.object({ id: z.string() }));
    const Shipped = domainType("Shipped", z.object({ text: z.string() }));
    const Address = z.object({ street: z.string(), city: z.string() });
    const agent = defineAgent({
      name: "Shipper",
      description: "Ships an order to an address a person gives, once they confirm",
      actions: [
        {
          name: "ship",
          input: Order,
          output: Shipped,
          achievesGoal: { description: "Shipped" },
          run: async (order) => {
            const address = await WaitFor.formSubmission("Delivery address", Address);
            const answer = await WaitFor.confirmation(address, `Ship ${order.id} to ${address.city}?`);
            return {
              text: answer.approved ? `shipped ${order.id} to ${address.street}, ${address.city}` : "held",
            };
          },
        },
      ],
    });
    const platform = AgentPlatform.create({ models: {} });
    platform.deploy(agent);
    const endpoint = await serveMcpOverHttp(() => createMcpServer({ name: "shipper", platform }));
    try {
      const args = { arguments: { id: "o1" } };
      const form = inputRequired(await modernToolCall(endpoint.url, "Shipper", args), "wait");
      expect(form.message).toBe("Delivery address");
      // Values the form's schema refuses: asked again, saying why.
      const refused = inputRequired(
        await modernToolCall(endpoint.url, "Shipper", {
          ...args,
          inputResponses: { wait: { action: "accept", content: { street: "Main St" } } },
          requestState: form.state,
        }),
        "wait",
      );
      expect(refused.message).toMatch(/^Delivery address\n\(Asked again: the answer was refused: .*city/);
      const confirm = inputRequired(
        await modernToolCall(endpoint.url, "Shipper", {
          ...args,
          inputResponses: { wait: { action: "accept", content: { street: "Main St", city: "Oslo" } } },
          requestState: refused.state,
        }),
        "wait",
      );
      expect(confirm.message).toContain("Ship o1 to Oslo?");
      const done = await modernToolCall(endpoint.url, "Shipper", {
        ...args,
        inputResponses: { wait: { action: "accept", content: { approve: true } } },
        requestState: confirm.state,
      });
      expect(done.result?.isError, JSON.stringify(done)).toBeFalsy();
      expect(resultText(done.result)).toContain("shipped o1 to Main St, Oslo");
    } finally {
      await endpoint.close();
      await platform.close();
    }
  });
});
