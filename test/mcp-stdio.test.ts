import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AgentPlatform,
  McpClients,
  McpServerError,
  McpToolFactory,
  McpToolGroup,
  ToolCallContext,
  ToolCallContextMcpMetaConverter,
  ToolResult,
} from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { type CapturedLogs, captureLogs } from "./support/captured-logs.js";
import {
  eventually,
  FIXTURE_SERVER,
  fixtureConfig,
  isAlive,
  logLines,
  tempLog,
} from "./support/mcp-fixture.js";

const cleanups: (() => Promise<void> | void)[] = [];
// Servers that fail on purpose make the library warn: the warnings are recorded (and asserted where they are the point), not printed.
let logs: CapturedLogs;
beforeEach(() => {
  logs = captureLogs();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  logs.restore();
});

function clientsFor(servers: Record<string, unknown>): McpClients {
  const clients = McpClients.fromConfig({ mcpServers: servers });
  cleanups.push(() => clients.close());
  return clients;
}

function fixture(extra: Record<string, unknown> = {}): { clients: McpClients; log: string } {
  const { dir, log } = tempLog();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { clients: clientsFor({ tools: fixtureConfig(log, extra) }), log };
}

// One server for the tests that neither break nor reconfigure it.
let shared: { clients: McpClients; log: string };
const sharedCleanups: (() => Promise<void> | void)[] = [];
beforeAll(() => {
  const { dir, log } = tempLog();
  const clients = McpClients.fromConfig({ mcpServers: { tools: fixtureConfig(log) } });
  sharedCleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => clients.close(),
  );
  shared = { clients, log };
});
afterAll(async () => {
  for (const cleanup of sharedCleanups.splice(0).reverse()) await cleanup();
});

function group(clients: McpClients, filter?: (name: string) => boolean): McpToolGroup {
  return McpToolGroup.create({
    role: "fixture",
    description: "Fixture tools",
    clients,
    ...(filter ? { filter: (tool) => filter(tool.name) } : {}),
  });
}

/** A group whose server failing fails `tools()` (instead of an empty list and a warning). */
function requiredGroup(clients: McpClients): McpToolGroup {
  return McpToolGroup.create({ role: "fixture", description: "Fixture tools", clients, required: true });
}

async function tool(clients: McpClients, name: string) {
  return McpToolFactory.create(clients).requiredToolByName(name);
}

describe("McpToolGroup over stdio", () => {
  it("starts nothing until its tools are needed", () => {
    const { clients } = fixture();
    const tools = group(clients);
    expect(String(tools)).toMatch(/^McpToolGroup\(metadata=.*role=fixture.*, toolsInitialized=false\)$/);
    expect(clients.get("tools")?.connected).toBe(false);
    expect(clients.get("tools")?.pid).toBeUndefined();
  });

  it("loads once for concurrent first uses, keeps the server's schema and normalises names providers reject", async () => {
    const { clients } = shared;
    const tools = group(clients);
    const [first, second] = await Promise.all([tools.tools(), tools.tools()]);
    expect(first).toBe(second);
    expect(tools.toolsInitialized).toBe(true);
    expect(String(tools)).toContain("toolsInitialized=true");
    const names = first.map((candidate) => candidate.definition.name);
    expect(names).toContain("weather_lookup");
    expect(names).not.toContain("weather.lookup");
    const echo = first.find((candidate) => candidate.definition.name === "echo");
    expect(echo?.definition.inputSchema.jsonSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string", description: "What to echo" } },
      required: ["text"],
    });
    const lookup = first.find((candidate) => candidate.definition.name === "weather_lookup");
    expect(await lookup?.call('{"city":"Oslo"}')).toEqual(ToolResult.text("lookup:Oslo"));
  });

  it("is used by a model through the tool loop, requested by role from config", async () => {
    const { dir, log } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const model = new ScriptedModel([
      ScriptedModel.toolCall("get_weather", { city: "Lisbon" }),
      ScriptedModel.text("It is sunny."),
    ]);
    const platform = AgentPlatform.create({
      models: { default: model },
      mcpServers: { tools: fixtureConfig(log) },
      toolGroups: { weather: { description: "Get weather for location", tools: ["weather"] } },
    });
    cleanups.push(() => platform.close());
    expect(platform.mcpClients.get("tools")?.connected).toBe(false);
    const answer = await platform.ai().withToolGroup("weather").generateText("Weather in Lisbon?");
    expect(answer).toBe("It is sunny.");
    expect(model.requests[0]?.toolNames).toEqual(["get_weather"]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: "Sunny and 21°C in Lisbon",
    });
    const metadata = platform.toolGroups.get("weather")?.metadata;
    expect(metadata).toMatchObject({ provider: "embabel", permissions: ["INTERNET_ACCESS"] });
  });

  it("keeps images and structuredContent as the artifact and gives the LLM the text", async () => {
    const { clients } = shared;
    const result = await (await tool(clients, "media")).call("{}");
    expect(result.kind).toBe("artifact");
    expect(result.content).toBe("Here is the chart");
    const artifact = (result as { artifact: { content: { type: string }[]; structuredContent: unknown } })
      .artifact;
    expect(artifact.content.map((block) => block.type)).toEqual(["text", "image"]);
    expect(artifact.structuredContent).toEqual({ temperature: 33, conditions: "Cloudy" });
  });

  it("answers arguments that are not a JSON object in-band, and takes blank arguments as none", async () => {
    const { clients } = shared;
    const echo = await tool(clients, "echo");
    expect((await echo.call('{"text":')).content).toMatch(/^Invalid JSON arguments for tool 'echo': /);
    expect(await echo.call('["hello"]')).toMatchObject({
      kind: "error",
      content: "The arguments of tool 'echo' must be a JSON object.",
    });
    expect(await (await tool(clients, "pid")).call("  ")).toMatchObject({ kind: "text" });
    expect(await echo.call('{"text":"still here"}')).toEqual(ToolResult.text("still here"));
  });

  it("answers isError with an error result carrying the server's text", async () => {
    const { clients } = shared;
    const result = await (await tool(clients, "fails")).call("{}");
    expect(result).toMatchObject({ kind: "error", content: "the upstream API said no" });
  });
});

describe("context as _meta", () => {
  it("passes the context through, never the loop id, and sends no _meta for an empty context (but {} for a loop's)", async () => {
    const { clients } = shared;
    const metaEcho = await tool(clients, "meta_echo");
    const context = ToolCallContext.of({
      tenantId: "acme",
      authToken: "t-1",
      [ToolCallContext.LOOP_ID_KEY]: "loop-7",
    });
    expect(JSON.parse((await metaEcho.call("{}", context)).content)).toEqual({
      tenantId: "acme",
      authToken: "t-1",
    });
    expect((await metaEcho.call("{}", ToolCallContext.EMPTY)).content).toBe("null");
    const onlyLoop = ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: "loop-8" });
    expect((await metaEcho.call("{}", onlyLoop)).content).toBe("{}");
  });

  it("sends each call's own context, and asks a converter of the user's on every call", async () => {
    const { clients } = shared;
    const metaEcho = await tool(clients, "meta_echo");
    const acme = ToolCallContext.of({ tenantId: "acme" });
    const globex = ToolCallContext.of({ tenantId: "globex" });
    const seen: unknown[] = [];
    for (const context of [acme, acme, globex, acme]) {
      seen.push(JSON.parse((await metaEcho.call("{}", context)).content));
    }
    expect(seen).toEqual([
      { tenantId: "acme" },
      { tenantId: "acme" },
      { tenantId: "globex" },
      { tenantId: "acme" },
    ]);
    // A converter may read state of its own (a rotating token): the same context must not get a stale value.
    let token = 0;
    const rotating = await McpToolFactory.create(clients, {
      metaConverter: (context) => ({ tenant: context.get("tenantId"), token: `t-${++token}` }),
    }).requiredToolByName("meta_echo");
    expect(JSON.parse((await rotating.call("{}", acme)).content)).toEqual({ tenant: "acme", token: "t-1" });
    expect(JSON.parse((await rotating.call("{}", acme)).content)).toEqual({ tenant: "acme", token: "t-2" });
  });

  it("applies the group's converter on every call, through the loop", async () => {
    const { clients } = shared;
    const tools = McpToolGroup.create({
      role: "meta",
      description: "meta",
      clients,
      filter: (info) => info.name === "meta_echo",
      metaConverter: ToolCallContextMcpMetaConverter.allowKeys("tenantId"),
    });
    const model = new ScriptedModel([ScriptedModel.toolCall("meta_echo", {}), ScriptedModel.text("ok")]);
    const platform = AgentPlatform.create({ models: { default: model }, toolGroups: [tools] });
    await platform
      .ai()
      .withToolGroup("meta")
      .withToolCallContext({ tenantId: "acme", authToken: "secret" })
      .generateText("go");
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({ type: "text", value: '{"tenantId":"acme"}' });
  });
});

describe("failures", () => {
  it("answers a server that dies mid-call in-band, naming it, and restarts it on the next call", async () => {
    const { clients } = fixture();
    const pidTool = await tool(clients, "pid");
    const firstPid = Number((await pidTool.call("{}")).content);
    const crashed = await (await tool(clients, "crash")).call("{}");
    expect(crashed.kind).toBe("error");
    expect(crashed.content).toMatch(/MCP server 'tools' failed to run tool 'crash': .*Connection closed/);
    const secondPid = Number((await pidTool.call("{}")).content);
    expect(secondPid).not.toBe(firstPid);
    expect(isAlive(firstPid)).toBe(false);
  });

  it("reports a server that never starts, naming it and the cause, and tries again on the next use", async () => {
    const clients = clientsFor({ ghost: { command: "/nonexistent/mcp-server-binary" } });
    const tools = requiredGroup(clients);
    await expect(tools.tools()).rejects.toThrow(/MCP server 'ghost' could not be started: .*ENOENT/);
    expect(tools.toolsInitialized).toBe(false);
    await expect(tools.tools()).rejects.toSatisfy(McpServerError.isInstance);
  });

  it("tells a runner asking for a group over a server that never starts which group and server failed", async () => {
    const model = new ScriptedModel([ScriptedModel.text("unused")]);
    const platform = AgentPlatform.create({
      models: { default: model },
      mcpServers: { ghost: { command: "/nonexistent/mcp-server-binary" } },
      toolGroups: { web: { tools: ["search"], required: true } },
    });
    cleanups.push(() => platform.close());
    await expect(platform.ai().withToolGroup("web").generateText("hi")).rejects.toThrow(
      /^Tool group with role='web' could not be resolved: Tool group 'web' failed to load its tools: MCP server 'ghost' could not be started: .*ENOENT/,
    );
    expect(model.requests).toHaveLength(0);
  });

  it("reports a server that never answers the handshake once its connect timeout passes", async () => {
    const clients = clientsFor({
      silent: {
        command: process.execPath,
        args: ["-e", "setInterval(() => {}, 1000)"],
        connectTimeoutMs: 400,
      },
    });
    await expect(requiredGroup(clients).tools()).rejects.toThrow(
      "MCP server 'silent' could not be started: Request timed out",
    );
  });

  it("stops waiting for a slow first load when the caller's signal aborts", async () => {
    const clients = clientsFor({
      silent: {
        command: process.execPath,
        args: ["-e", "setInterval(() => {}, 1000)"],
        connectTimeoutMs: 30_000,
      },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("gave up")), 100);
    await expect(group(clients).tools({ signal: controller.signal })).rejects.toThrow("gave up");
  });

  it("recovers once a server that failed to start can start", async () => {
    const { dir } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const entry = join(dir, "server.mjs");
    const clients = clientsFor({ late: { command: process.execPath, args: [entry] } });
    const tools = requiredGroup(clients);
    // The server's stderr ("Cannot find module …") goes to the log, not into the error (test/mcp-stderr.test.ts).
    await expect(tools.tools()).rejects.toThrow(
      /MCP server 'late' could not be started: .*Connection closed/,
    );
    expect(logs.lines).toContainEqual(
      expect.stringMatching(
        /^warn: MCP server 'late' could not be started; its stderr ends with:\n[\s\S]*Cannot find module/,
      ),
    );
    symlinkSync(FIXTURE_SERVER, entry);
    expect((await tools.tools()).length).toBeGreaterThan(5);
  });

  it("answers a call past its timeout in-band and cancels it on the server", async () => {
    const { clients, log } = fixture({ timeoutMs: 300 });
    const slow = await tool(clients, "slow");
    const started = Date.now();
    const result = await slow.call('{"ms":10000}');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toMatchObject({
      kind: "error",
      content: "MCP server 'tools' did not run tool 'slow' within 300 ms; the request was cancelled.",
    });
    await eventually(() => logLines(log).some((line) => line.startsWith("aborted slow")));
    expect((await (await tool(clients, "echo")).call('{"text":"still here"}')).content).toBe("still here");
  });

  it("cancels the request when the loop's signal aborts", async () => {
    const { clients, log } = shared;
    const slow = await tool(clients, "slow");
    const controller = new AbortController();
    const call = slow.call('{"ms":10000}', ToolCallContext.EMPTY, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user pressed stop")), 100);
    await expect(call).rejects.toThrow("user pressed stop");
    await eventually(() => logLines(log).some((line) => line.startsWith("aborted slow")));
  });

  it("rejects a call whose signal is already aborted, without restarting a server that died", async () => {
    const { clients } = fixture();
    const echo = await tool(clients, "echo");
    const client = clients.get("tools");
    process.kill(client?.pid ?? 0, "SIGKILL");
    await eventually(() => client?.connected === false);
    const controller = new AbortController();
    controller.abort(new Error("gave up"));
    const call = echo.call('{"text":"hi"}', ToolCallContext.EMPTY, { signal: controller.signal });
    expect(call).toBeInstanceOf(Promise);
    await expect(call).rejects.toThrow("gave up");
    expect(client?.connected).toBe(false);
    expect(client?.pid).toBeUndefined();
  });
});

describe("McpClients.close", () => {
  it("leaves no child process alive", async () => {
    const { clients } = fixture();
    const pid = Number((await (await tool(clients, "pid")).call("{}")).content);
    expect(clients.get("tools")?.pid).toBe(pid);
    expect(isAlive(pid)).toBe(true);
    await clients.close();
    await eventually(() => !isAlive(pid));
    expect(clients.get("tools")?.pid).toBeUndefined();
  });
});

describe("McpToolFactory", () => {
  it("finds single tools, and says which exist when one is missing", async () => {
    const { clients } = shared;
    const factory = McpToolFactory.create(clients);
    expect((await factory.toolByName("echo"))?.definition.name).toBe("echo");
    expect(await factory.toolByName("nope")).toBeUndefined();
    await expect(factory.requiredToolByName("nope")).rejects.toThrow(
      /^MCP tool 'nope' not found\. Available tools: crash, db_read, echo, fails, get_weather, media, meta_echo, other, pid, run_query_fast, slow, weather\.lookup$/,
    );
  });

  it("says no tools are available when there are no servers", async () => {
    const factory = McpToolFactory.create([]);
    await expect(factory.requiredToolByName("x")).rejects.toThrow(
      "MCP tool 'x' not found. No MCP tools are available - check MCP client connections.",
    );
    const empty = await factory.unfoldingByName("wikipedia", "Search Wikipedia", ["search_wikipedia"]);
    expect(empty.definition.name).toBe("wikipedia");
    expect(empty.innerTools).toEqual([]);
  });

  it("builds an unfoldingMatching facade a model unfolds and uses through the loop", async () => {
    const { clients } = shared;
    const factory = McpToolFactory.create(clients);
    const facade = await factory.unfoldingMatching("database_operations", "Database operations.", [
      /^db_/,
      "query",
    ]);
    expect(facade.innerTools.map((inner) => inner.definition.name)).toEqual(["db_read", "run_query_fast"]);
    const byName = await factory.unfoldingByName("two", "Two tools", ["echo", "pid"]);
    expect(byName.innerTools.map((inner) => inner.definition.name)).toEqual(["echo", "pid"]);

    const model = new ScriptedModel([
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.toolCall("run_query_fast", {}),
      ScriptedModel.text("Three rows."),
    ]);
    const platform = AgentPlatform.create({ models: { default: model } });
    const answer = await platform.ai().withTool(facade).generateText("How many rows?");
    expect(answer).toBe("Three rows.");
    expect(model.requests[0]?.toolNames).toEqual(["database_operations"]);
    expect(model.requests[1]?.toolNames).toEqual(
      expect.arrayContaining(["database_operations", "db_read", "run_query_fast"]),
    );
    expect(model.requests[2]?.toolResults[0]?.output).toEqual({ type: "text", value: "3 rows" });
  });
});
