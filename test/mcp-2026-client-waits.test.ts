import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentPlatform,
  createMcpServer,
  defineAgent,
  domainType,
  type McpHttpEndpoint,
  McpToolFactory,
  serveMcpOverHttp,
  Tool,
} from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { cli } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";

// The client side of human in the loop over MCP 2026-07-28: a served tool
// needing a person's approval (createMcpServer on 127.0.0.1, so the client
// speaks 2026-07-28 to it) answers `input_required` with its approval form. In
// an agent process with no elicitation handler, that becomes a confirmation
// request of the process, answerable like any other wait: from code
// (`platform.respond`) and from the terminal (`embabel-ts run --approve-all` /
// `--deny-all` on a user's module whose config names the server). Each real
// run of the served `pay` is counted.

const paid: string[] = [];
const pay = Tool.requireApproval(
  Tool.fromFunction(
    "pay",
    "Pays an amount in cents (needs a person's approval)",
    z.object({ tag: z.string(), cents: z.number().int().positive() }),
    z.string(),
    (input) => {
      paid.push(`${input.tag} ${input.cents}`);
      return `paid ${input.cents} for ${input.tag}`;
    },
  ),
  { message: (input) => `Pay ${input.cents} cents for ${input.tag}?` },
);

let endpoint: McpHttpEndpoint;
beforeAll(async () => {
  endpoint = await serveMcpOverHttp(() => createMcpServer({ name: "remote", tools: [pay] }));
});
afterAll(async () => {
  await endpoint?.close();
});
beforeEach(() => {
  paid.length = 0;
});

const Order = domainType("Order", z.object({ tag: z.string(), cents: z.number().int() }));
const Receipt = domainType("Receipt", z.object({ reply: z.string() }));

describe("a 2026-07-28 server's approval in an agent process", () => {
  async function waitingRun(tag: string) {
    const platform = AgentPlatform.create({
      models: { default: ScriptedModel.of() },
      mcpServers: { remote: { type: "http", url: endpoint.url } },
    });
    const remotePay = await McpToolFactory.create(platform.mcpClients).requiredToolByName("pay");
    const agent = defineAgent({
      name: "Payer",
      description: "Pays through a remote server",
      actions: [
        {
          name: "pay",
          input: Order,
          output: Receipt,
          achievesGoal: { description: "Paid" },
          run: async (order) => ({ reply: String((await remotePay.call(JSON.stringify(order))).content) }),
        },
      ],
    });
    const run = await platform.runAgent(agent, { tag, cents: 100 });
    return { platform, run };
  }

  it("is a confirmation of the process; approved with platform.respond, the tool runs once", async () => {
    const { platform, run } = await waitingRun("c1");
    try {
      expect(run.status, run.statusReason).toBe("waiting");
      const [request] = run.awaiting;
      expect(request).toMatchObject({ kind: "confirmation", payload: { server: "remote" } });
      expect((request as { message: string }).message).toMatch(
        /^MCP server 'remote' asks: Pay 100 cents for c1\?/,
      );
      expect(paid).toEqual([]);
      const done = await platform.respond(run.id, request?.id as string, { approved: true });
      expect(done.status, done.statusReason).toBe("completed");
      expect(done.result).toMatchObject({ reply: "paid 100 for c1" });
      expect(paid).toEqual(["c1 100"]);
    } finally {
      await platform.close();
    }
  });

  it("denied with a reason: the tool never runs, and the reason reaches the caller", async () => {
    const { platform, run } = await waitingRun("c2");
    try {
      const [request] = run.awaiting;
      const done = await platform.respond(run.id, request?.id as string, {
        approved: false,
        reason: "not this month",
      });
      expect(done.status, done.statusReason).toBe("completed");
      expect((done.result as { reply: string }).reply).toContain("not this month");
      expect(paid).toEqual([]);
    } finally {
      await platform.close();
    }
  });
});

describe("embabel-ts run on a module calling a 2026-07-28 server that asks approval", () => {
  const MODULE = join(root, "test/fixtures/waits/remote-pay.mjs");
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), "embabel-remote-pay-"));
    writeFileSync(
      join(dir, "embabel.config.json"),
      JSON.stringify({ mcpServers: { remote: { type: "http", url: endpoint.url } } }),
    );
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (input: string, ...flags: string[]) =>
    cli(["run", MODULE, input, "--scripted", "--no-keep-runs", ...flags], { NO_COLOR: "1" }, dir);

  it("--approve-all answers the server's approval: the tool runs once", async () => {
    const done = await run('{"tag":"t1","cents":200}', "--approve-all");
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain("paid 200 for t1");
    expect(paid).toEqual(["t1 200"]);
  }, 60_000);

  it("--deny-all: the tool never runs", async () => {
    const done = await run('{"tag":"t2","cents":300}', "--deny-all");
    expect(done.code, done.stderr).toBe(0);
    expect(`${done.stdout}${done.stderr}`).toContain("denied by --deny-all");
    expect(paid).toEqual([]);
  }, 60_000);

  it("no terminal and no flag: the run waits, naming the server and its question", async () => {
    const waiting = await run('{"tag":"t3","cents":400}');
    expect(waiting.code).toBe(3);
    expect(waiting.stderr).toContain("MCP server 'remote' asks: Pay 400 cents for t3?");
    expect(paid).toEqual([]);
  }, 60_000);
});
