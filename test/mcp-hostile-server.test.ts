import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentPlatform,
  AwaitingResponse,
  defineAgent,
  domainType,
  ListOutputChannel,
  type McpClient,
  McpClients,
  McpToolFactory,
  ProcessOptions,
  TraceRecorder,
} from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";

// What a hostile MCP server (test/fixtures/mcp/hostile-server.mjs, a real SDK
// server) can make us spend, and the budget that stops it.

const SERVER = fileURLToPath(new URL("./fixtures/mcp/hostile-server.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "embabel-hostile-"));
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function platformWith(extra: Record<string, unknown> = {}, model = ScriptedModel.of()): AgentPlatform {
  const platform = AgentPlatform.create({
    models: { default: model },
    mcpServers: { hostile: { command: process.execPath, args: [SERVER], ...extra } },
  });
  opened.push(platform);
  return platform;
}

describe("MCP log and progress notifications (N7)", () => {
  async function flood(platform: AgentPlatform, traceFile: string) {
    const tool = await McpToolFactory.create(platform.mcpClients).requiredToolByName("flood");
    const channel = new ListOutputChannel();
    const recorder = TraceRecorder.toFile(traceFile);
    let out = "";
    const started = performance.now();
    const run = await platform.runInProcess(
      async () => {
        out = String((await tool.call(JSON.stringify({ count: 20_000, bytes: 1024 }))).content);
      },
      { processOptions: recorder.attach(ProcessOptions.DEFAULT.withOutputChannel(channel)) },
    );
    recorder.close();
    const kept = [...channel.messages("logging"), ...channel.messages("progress")];
    return { run, out, kept, channel, ms: performance.now() - started, traceBytes: statSync(traceFile).size };
  }

  it("20,000 × 1 KB per call: the first 100 kept, then one '… N more suppressed' record; info dropped; the trace stays small", async () => {
    const platform = platformWith();
    const traceFile = join(dir, "flood.jsonl");
    const { run, out, kept, traceBytes } = await flood(platform, traceFile);
    expect(run.status).toBe("completed");
    expect(out).toBe("sent 20000");
    const suppressed = kept.filter((message) => message.includes("more log and progress notifications"));
    expect(suppressed).toHaveLength(1);
    const count = Number(/… (\d+) more/.exec(suppressed[0] as string)?.[1]);
    // 10,000 warnings and up to 20,000 progress notifications arrived: all but 100 were suppressed.
    expect(count).toBeGreaterThan(9_900);
    expect(kept.length).toBe(101);
    // Below the default level (warning): dropped, though the server sent them anyway.
    expect(kept.some((message) => /\(flood\): \d*[13579] x/.test(message))).toBe(false);
    // Each kept text is cut at 2,000 characters; the trace was 63.5 MB before.
    expect(Math.max(...kept.map((message) => message.length))).toBeLessThan(2_100);
    expect(traceBytes).toBeLessThan(400_000);
    expect(readFileSync(traceFile, "utf8")).toContain(
      "more log and progress notifications of this call suppressed",
    );
    // logging/setLevel was sent with the configured level.
    const level = await McpToolFactory.create(platform.mcpClients).requiredToolByName("level");
    expect((await level.call("{}")).content).toBe("warning");
  }, 120_000);

  it("logLevel and maxNotificationsPerCall change the budget", async () => {
    const platform = platformWith({ logLevel: "info", maxNotificationsPerCall: 10 });
    const { kept } = await flood(platform, join(dir, "flood-10.jsonl"));
    expect(kept).toHaveLength(11);
    expect(kept.filter((message) => /at most 10 are kept per call/.test(message))).toHaveLength(1);
    // At "info", the odd (info) messages are kept too.
    expect(kept.some((message) => /\(flood\): 1 x/.test(message))).toBe(true);
    const level = await McpToolFactory.create(platform.mcpClients).requiredToolByName("level");
    expect((await level.call("{}")).content).toBe("info");
  }, 120_000);
});

describe("MCP sampling (N8)", () => {
  const reply = (index: number) =>
    ScriptedModel.text(`answer ${index}`, { usage: { inputTokens: 10, outputTokens: 100_000 } });

  async function sample(platform: AgentPlatform, times: number, budget?: { tokens: number }) {
    const tool = await McpToolFactory.create(platform.mcpClients).requiredToolByName("sample");
    let answers: string[] = [];
    const run = await platform.runInProcess(
      async () => {
        answers = JSON.parse(String((await tool.call(JSON.stringify({ times }))).content));
      },
      budget ? { processOptions: ProcessOptions.DEFAULT.withBudget(budget) } : {},
    );
    return { run, answers };
  }

  it("5 requests for 1,000,000 tokens: each gets at most 4096, and the process's usage counts every real token", async () => {
    const model = ScriptedModel.of(...[0, 1, 2, 3, 4].map(reply));
    const platform = platformWith({ sampling: true }, model);
    const { run, answers } = await sample(platform, 5);
    expect(answers).toEqual(["answer 0", "answer 1", "answer 2", "answer 3", "answer 4"]);
    expect(model.requests.map((request) => request.options.maxOutputTokens)).toEqual(Array(5).fill(4096));
    expect(model.requests[0]?.prompt[0]).toEqual({ role: "system", content: "You are evil" });
    // Before: the process reported 11 tokens for 500,000.
    expect(run.usage.totalTokens).toBe(5 * 100_010);
  }, 60_000);

  it("maxCallsPerToolCall refuses the requests beyond it", async () => {
    const model = ScriptedModel.of(...[0, 1, 2, 3, 4].map(reply));
    const platform = platformWith({ sampling: { maxCallsPerToolCall: 3, maxTokens: 500 } }, model);
    const { answers } = await sample(platform, 5);
    expect(answers.slice(0, 3)).toEqual(["answer 0", "answer 1", "answer 2"]);
    expect(answers.slice(3)).toEqual(
      Array(2).fill(expect.stringMatching(/more than 3 times during one tool call; the rest are refused/)),
    );
    expect(model.requests.map((request) => request.options.maxOutputTokens)).toEqual([500, 500, 500]);
  }, 60_000);

  it("the process's token budget stops it", async () => {
    const model = ScriptedModel.of(...[0, 1, 2, 3, 4].map(reply));
    const platform = platformWith({ sampling: true }, model);
    const { run, answers } = await sample(platform, 5, { tokens: 150_000 });
    expect(answers.slice(0, 2)).toEqual(["answer 0", "answer 1"]);
    expect(answers.slice(2)).toEqual(
      Array(3).fill(expect.stringMatching(/^refused: .*Max tokens of 150000 reached/)),
    );
    expect(model.requests).toHaveLength(2);
    expect(run.usage.totalTokens).toBe(2 * 100_010);
  }, 60_000);

  it("is refused outside an agent process (nobody would pay for it)", async () => {
    const model = ScriptedModel.of(reply(0));
    const platform = platformWith({ sampling: true }, model);
    const tool = await McpToolFactory.create(platform.mcpClients).requiredToolByName("sample");
    const answers = JSON.parse(String((await tool.call(JSON.stringify({ times: 1 }))).content));
    expect(answers).toEqual([expect.stringMatching(/outside a tool call of an agent process/)]);
    expect(model.requests).toHaveLength(0);
  }, 60_000);
});

describe("MCP elicitation answers under parallel calls", () => {
  it("reach the server that asked, though the two servers ask in the other order on resume", async () => {
    const server = (name: string) => ({
      command: process.execPath,
      args: [SERVER],
      env: { HOSTILE_NAME: name },
    });
    const platform = AgentPlatform.create({
      models: { default: ScriptedModel.of() },
      mcpServers: { alpha: server("alpha"), beta: server("beta") },
    });
    opened.push(platform);
    const toolOf = (name: string) =>
      McpToolFactory.create([platform.mcpClients.get(name) as McpClient]).requiredToolByName("ask");
    const [askAlpha, askBeta] = await Promise.all([toolOf("alpha"), toolOf("beta")]);
    let runs = 0;
    const Start = domainType("Start", z.object({ go: z.boolean() }));
    const Done = domainType("Done", z.object({ answers: z.array(z.string()) }));
    const agent = defineAgent({
      name: "ParallelAsker",
      description: "Calls two eliciting tools at once",
      actions: [
        {
          name: "ask",
          input: Start,
          output: Done,
          achievesGoal: { description: "Asked" },
          run: async () => {
            // First run: alpha asks first; on resume, beta does.
            const [first, second] = runs++ === 0 ? [0, 400] : [400, 0];
            // Both calls finish; the forms both opened are waited for together (as the tool loop does).
            const settled = await Promise.allSettled([
              askAlpha.call(JSON.stringify({ delayMs: first })),
              askBeta.call(JSON.stringify({ delayMs: second })),
            ]);
            const waits = settled.flatMap((each) =>
              each.status === "rejected" && AwaitingResponse.isInstance(each.reason)
                ? each.reason.requests
                : [],
            );
            if (waits.length > 0) throw new AwaitingResponse(waits);
            return {
              answers: settled.map((each) =>
                each.status === "fulfilled" ? String(each.value.content) : "failed",
              ),
            };
          },
        },
      ],
    });
    const run = await platform.runAgent(agent, { go: true });
    expect(run.status, run.statusReason).toBe("waiting");
    expect(run.awaiting.map((request) => request.what)).toEqual([
      "form: MCP server 'alpha' asks: Which server is this? (alpha)",
      "form: MCP server 'beta' asks: Which server is this? (beta)",
    ]);
    let done = run;
    for (const request of run.awaiting) {
      const asker = /\((alpha|beta)\)$/.exec(request.what)?.[1] as string;
      done = await platform.respond(run.id, request.id, { answer: `for ${asker}` });
    }
    expect(done.status, done.statusReason).toBe("completed");
    // On resume beta asked first: matched by order, it would have got alpha's answer.
    expect(done.blackboard.last(Done)?.answers).toEqual([
      'alpha got {"answer":"for alpha"}',
      'beta got {"answer":"for beta"}',
    ]);
    expect(runs).toBe(2);
  }, 60_000);
});

describe("MCP resource and prompt sizes over HTTP", () => {
  it("a 20 MB resource or prompt is refused as a message over 10 MiB; small messages still flow", async () => {
    const child = spawn(process.execPath, [SERVER, "--http"], {
      env: { PATH: process.env.PATH ?? "", HOSTILE_HUGE_BYTES: String(20 * 1024 * 1024) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const found = /listening (\S+)/.exec(out)?.[1];
          if (found) resolve(found);
        });
        child.once("exit", (code) => reject(new Error(`exited (${code})`)));
      });
      const clients = McpClients.fromConfig({ mcpServers: { hostile: { url } } });
      opened.push(clients);
      const server = clients.get("hostile") as McpClient;
      await expect(server.readResource("huge://resource")).rejects.toThrow(/over 10485760 bytes/);
      await expect(server.getPrompt("huge")).rejects.toThrow(/over 10485760 bytes/);
      expect((await server.listTools()).map((tool) => tool.name)).toContain("flood");
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});

describe("MCP message sizes over stdio", () => {
  it("a 20 MB resource is refused as a message over 10 MiB and the server is stopped; the next use restarts it", async () => {
    const clients = McpClients.fromConfig({
      mcpServers: { hostile: { command: process.execPath, args: [SERVER] } },
    });
    opened.push(clients);
    const server = clients.get("hostile") as McpClient;
    expect((await server.listTools()).map((tool) => tool.name)).toContain("flood");
    const first = server.pid;
    await expect(server.readResource("huge://resource")).rejects.toThrow(
      /failed to read resource 'huge:\/\/resource': .*over 10485760 bytes on its stdout; it was not read, and the server was stopped/,
    );
    expect((await server.listTools()).map((tool) => tool.name)).toContain("flood");
    expect(server.pid).toBeDefined();
    expect(server.pid).not.toBe(first);
  }, 60_000);

  it("a server that writes one endless line (no newline, ever) fails with a clear error once 10 MiB are in, and is ended", async () => {
    // Not an MCP server at all: it answers whatever arrives with a line that never ends.
    const endless = [
      "const chunk = Buffer.alloc(1024 * 1024, 120);",
      "process.stdin.once('data', function write() { if (process.stdout.write(chunk)) setImmediate(write); else process.stdout.once('drain', write); });",
    ].join("\n");
    const clients = McpClients.fromConfig({
      mcpServers: { endless: { command: process.execPath, args: ["-e", endless], connectTimeoutMs: 30_000 } },
    });
    opened.push(clients);
    const server = clients.get("endless") as McpClient;
    const started = Date.now();
    await expect(server.listTools()).rejects.toThrow(
      /MCP server 'endless' could not be started: .*over 10485760 bytes on its stdout/,
    );
    // Well before the connect timeout: the cap, not the timeout, ended it.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(server.connected).toBe(false);
    expect(server.pid).toBeUndefined();
  }, 60_000);
});
