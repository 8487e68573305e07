import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SpanKind, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentPlatform,
  defineAgent,
  domainType,
  type McpClient,
  McpClients,
  McpToolFactory,
  ToolCallContext,
} from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { eventually, fixtureConfig, logLines, tempLog } from "./support/mcp-fixture.js";

// Our MCP client against servers of either revision: a 2026-07-28-only server
// (SDK v2 `createMcpHandler`, legacy traffic refused:
// test/fixtures/mcp/modern-server.mjs) and a 2025-11-25-only one (SDK v1,
// test/fixtures/mcp/tools-server.mjs). The client asks `server/discover` first
// and falls back to `initialize`; per-call `_meta` and `input_required` work
// at 2026-07-28.

const MODERN_SERVER = fileURLToPath(new URL("./fixtures/mcp/modern-server.mjs", import.meta.url));

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  exporter.reset();
});

/** Starts the 2026-07-28-only server; its URL once it listens. */
async function modernServer(): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [MODERN_SERVER], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin?.end();
      }),
  );
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim()));
  });
}

/** A 2025-11-25-only server's config (stdio). */
function legacyServer(): Record<string, unknown> {
  const { dir, log } = tempLog();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return fixtureConfig(log);
}

async function eraOf(clients: McpClients, name: string): Promise<string | undefined> {
  return (await (clients.get(name) as McpClient).sdkClient()).getProtocolEra();
}

describe("an MCP client at 2026-07-28 and at 2025-11-25", () => {
  it("serves one agent from a 2026-07-28-only server and a 2025-11-25-only server in the same run", async () => {
    const url = await modernServer();
    const platform = AgentPlatform.create({
      models: { default: ScriptedModel.of() },
      mcpServers: { modern: { type: "http", url }, legacy: legacyServer() },
    });
    cleanups.push(() => platform.close());
    const factory = McpToolFactory.create(platform.mcpClients);
    const forecast = await factory.requiredToolByName("forecast");
    const weather = await factory.requiredToolByName("get_weather");
    const Trip = domainType("Trip", z.object({ city: z.string() }));
    const Report = domainType("Report", z.object({ modern: z.string(), legacy: z.string() }));
    const agent = defineAgent({
      name: "Forecaster",
      description: "Asks both servers about the weather",
      actions: [
        {
          name: "ask",
          input: Trip,
          output: Report,
          achievesGoal: { description: "Reported" },
          run: async ({ city }: { city: string }) => ({
            modern: String((await forecast.call(JSON.stringify({ city }))).content),
            legacy: String((await weather.call(JSON.stringify({ city }))).content),
          }),
        },
      ],
    });
    const run = await platform.runAgent(agent, { city: "Oslo" });
    expect(run.status, run.statusReason).toBe("completed");
    expect(run.result).toMatchObject({
      modern: "sunny in Oslo (2026-07-28)",
      legacy: "Sunny and 21°C in Oslo",
    });
    expect(await eraOf(platform.mcpClients, "modern")).toBe("modern");
    expect(await eraOf(platform.mcpClients, "legacy")).toBe("legacy");
  });

  it("keeps the revision it found per server: a restarted 2026-07-28 stdio server is not asked server/discover again", async () => {
    const { dir, log } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const clients = McpClients.fromConfig({
      mcpServers: {
        modern: { command: process.execPath, args: [MODERN_SERVER, "--stdio"], env: { MODERN_LOG: log } },
      },
    });
    cleanups.push(() => clients.close());
    const factory = McpToolFactory.create(clients);
    const forecast = await factory.requiredToolByName("forecast");
    expect((await forecast.call('{"city":"Rome"}')).content).toBe("sunny in Rome (2026-07-28)");
    const crash = await factory.requiredToolByName("crash");
    expect((await crash.call("{}")).kind).toBe("error");
    expect((await forecast.call('{"city":"Bergen"}')).content).toBe("sunny in Bergen (2026-07-28)");
    expect(await eraOf(clients, "modern")).toBe("modern");
    const byProcess = new Map<string, string[]>();
    for (const [pid, method] of logLines(log).map((line) => line.split(" "))) {
      byProcess.set(pid as string, [...(byProcess.get(pid as string) ?? []), method as string]);
    }
    const [first, second] = [...byProcess.values()];
    expect(byProcess.size).toBe(2);
    expect(first?.[0]).toBe("server/discover");
    expect(first).not.toContain("initialize");
    expect(second).toContain("tools/call");
    expect(second).not.toContain("server/discover");
    expect(second).not.toContain("initialize");
  });

  it('with protocolVersion "2025-11-25", sends initialize at once: a 2026-07-28-only server refuses it, and is never probed', async () => {
    const { dir, log } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const clients = McpClients.fromConfig({
      mcpServers: {
        modern: {
          command: process.execPath,
          args: [MODERN_SERVER, "--stdio"],
          env: { MODERN_LOG: log },
          protocolVersion: "2025-11-25",
        },
      },
    });
    cleanups.push(() => clients.close());
    await expect(McpToolFactory.create(clients).requiredToolByName("forecast")).rejects.toThrow(
      /MCP server 'modern' could not be started/,
    );
    const methods = logLines(log).map((line) => line.split(" ")[1]);
    expect(methods[0]).toBe("initialize");
    expect(methods).not.toContain("server/discover");
  });

  it('with protocolVersion "2026-07-28", refuses a 2025-11-25-only server with an error naming the setting', async () => {
    const clients = McpClients.fromConfig({
      mcpServers: { legacy: { ...legacyServer(), protocolVersion: "2026-07-28" } as never },
    });
    cleanups.push(() => clients.close());
    await expect(McpToolFactory.create(clients).requiredToolByName("pid")).rejects.toThrow(
      /MCP server 'legacy' does not speak MCP 2026-07-28 \(it did not answer server\/discover\), and its config asks for protocolVersion "2026-07-28"\./,
    );
  });

  it("refuses a protocolVersion it does not speak, naming the server", () => {
    expect(() =>
      McpClients.fromConfig({
        mcpServers: { x: { command: "node", protocolVersion: "2024-11-05" as never } },
      }),
    ).toThrow(/protocolVersion/);
  });

  it("follows a 2026-07-28 server's tool list changes on a subscriptions/listen stream", async () => {
    const url = await modernServer();
    const clients = McpClients.fromConfig({ mcpServers: { modern: { type: "http", url } } });
    cleanups.push(() => clients.close());
    const client = clients.get("modern") as McpClient;
    const before = (await client.listTools()).map((tool) => tool.name);
    expect(before).not.toContain("added");
    const version = client.toolListVersion;
    expect((await client.callTool("add_tool", {})).content).toEqual([{ type: "text", text: "added" }]);
    await eventually(() => client.toolListVersion > version);
    expect((await client.listTools()).map((tool) => tool.name)).toContain("added");
  });

  it("sends a call's tool-call context and traceparent in _meta to a 2026-07-28 server", async () => {
    const url = await modernServer();
    const clients = McpClients.fromConfig({ mcpServers: { modern: { type: "http", url } } });
    cleanups.push(() => clients.close());
    const metaEcho = await McpToolFactory.create(clients).requiredToolByName("meta_echo");
    const result = await metaEcho.call("{}", ToolCallContext.of({ tenantId: "acme", correlationId: "c-9" }));
    const meta = JSON.parse(String(result.content)) as Record<string, unknown>;
    expect(meta).toMatchObject({ tenantId: "acme", correlationId: "c-9" });
    const [span] = exporter
      .getFinishedSpans()
      .filter((done) => done.name === "tools/call meta_echo" && done.kind === SpanKind.CLIENT);
    expect(span).toBeDefined();
    expect(meta.traceparent).toBe(`00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`);
    expect(await eraOf(clients, "modern")).toBe("modern");
  });

  it("answers a 2026-07-28 server's input_required through the configured elicitation handler", async () => {
    const url = await modernServer();
    const asked: string[] = [];
    const clients = McpClients.fromConfig({
      mcpServers: {
        modern: {
          type: "http",
          url,
          onElicitation: (request: { message: string }) => {
            asked.push(request.message);
            return { action: "accept", content: { name: "Ada" } };
          },
        },
      },
    });
    cleanups.push(() => clients.close());
    const askName = await McpToolFactory.create(clients).requiredToolByName("ask_name");
    expect((await askName.call("{}")).content).toBe("hello, Ada");
    expect(asked).toEqual(["Your name?"]);
  });

  it("declines a 2026-07-28 server's input_required without a handler, outside an agent process", async () => {
    const url = await modernServer();
    const clients = McpClients.fromConfig({ mcpServers: { modern: { type: "http", url } } });
    cleanups.push(() => clients.close());
    const askName = await McpToolFactory.create(clients).requiredToolByName("ask_name");
    expect((await askName.call("{}")).content).toBe("no name given");
  });

  it("makes an unanswered input_required a form request of the agent process, answered with platform.respond", async () => {
    const url = await modernServer();
    const platform = AgentPlatform.create({
      models: { default: ScriptedModel.of() },
      mcpServers: { modern: { type: "http", url } },
    });
    cleanups.push(() => platform.close());
    const askName = await McpToolFactory.create(platform.mcpClients).requiredToolByName("ask_name");
    const Start = domainType("Start", z.object({ go: z.boolean() }));
    const Done = domainType("Done", z.object({ answer: z.string() }));
    const agent = defineAgent({
      name: "Greeter",
      description: "Calls a tool whose server asks for a name",
      actions: [
        {
          name: "greet",
          input: Start,
          output: Done,
          achievesGoal: { description: "Greeted" },
          run: async () => ({ answer: String((await askName.call("{}")).content) }),
        },
      ],
    });
    const run = await platform.runAgent(agent, { go: true });
    expect(run.status, run.statusReason).toBe("waiting");
    const [request] = run.awaiting;
    expect(request).toMatchObject({ kind: "form", title: "MCP server 'modern' asks: Your name?" });
    const done = await platform.respond(run.id, request!.id, { name: "Grace" });
    expect(done.status, done.statusReason).toBe("completed");
    expect(done.result).toMatchObject({ answer: "hello, Grace" });
  });
});
