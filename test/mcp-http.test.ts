// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
import { rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentPlatform,
  createMcpServer,
  defineAgent,
  domainType,
  McpClients,
  McpServerError,
  McpToolFactory,
  McpToolGroup,
  serveMcpOverHttp,
  Tool,
  ToolCallContext,
  ToolResult,
} from "../src/index.js";
import { logLines, startHttpFixture, tempLog } from "./support/mcp-fixture.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function httpFixture(transport: "http" | "sse" = "http") {
  const { dir, log } = tempLog();
  const { url, child } = await startHttpFixture(log, 0, transport);
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => {
      child.kill("SIGKILL");
    },
  );
  return { url, child, log };
}

function clientsFor(servers: Record<string, unknown>, env: Record<string, string> = {}): McpClients {
  const clients = McpClients.fromConfig({ mcpServers: servers }, { env });
  cleanups.push(() => clients.close());
  return clients;
}

describe("MCP over Streamable HTTP", () => {
  it("calls a server's tools with headers from the environment and the context as _meta", async () => {
    const { url, log } = await httpFixture();
    const clients = clientsFor(
      { remote: { type: "http", url, headers: { Authorization: "Bearer ${env:TOKEN}" } } },
      { TOKEN: "t-1" },
    );
    const factory = McpToolFactory.create(clients);
    const echo = await factory.requiredToolByName("echo");
    expect(await echo.call('{"text":"over http"}')).toEqual(ToolResult.text("over http"));
    const metaEcho = await factory.requiredToolByName("meta_echo");
    const result = await metaEcho.call("{}", ToolCallContext.of({ traceId: "abc" }));
    expect(JSON.parse(result.content)).toEqual({ traceId: "abc" });
    expect(logLines(log)).toContain("auth Bearer t-1");
  });

  it("answers in-band, well before the timeout, when the server dies mid-call", async () => {
    const { url, child } = await httpFixture();
    const clients = clientsFor({ remote: { url, timeoutMs: 20_000 } });
    const slow = await McpToolFactory.create(clients).requiredToolByName("slow");
    const started = Date.now();
    const call = slow.call('{"ms":15000}');
    setTimeout(() => child.kill("SIGKILL"), 300);
    const result = await call;
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^MCP server 'remote' failed to run tool 'slow'/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("reconnects on the next call once a server that went away is back", async () => {
    const { dir, log } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = await startHttpFixture(log);
    cleanups.push(() => {
      first.child.kill("SIGKILL");
    });
    const clients = clientsFor({ remote: { url: first.url, timeoutMs: 10_000 } });
    const echo = await McpToolFactory.create(clients).requiredToolByName("echo");
    expect((await echo.call('{"text":"one"}')).content).toBe("one");
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;
    const down = await echo.call('{"text":"two"}');
    expect(down.kind).toBe("error");
    expect(down.content).toMatch(/^MCP server 'remote' failed to run tool 'echo': .*fetch failed/);
    const second = await startHttpFixture(log, Number(new URL(first.url).port));
    cleanups.push(() => {
      second.child.kill("SIGKILL");
    });
    expect((await echo.call('{"text":"three"}')).content).toBe("three");
  });

  it("names the variable a config lacks", () => {
    expect(() =>
      McpClients.fromConfig({ mcpServers: { remote: { url: "${BASE}/mcp" } } }, { env: {} }),
    ).toThrow("mcpServers.remote.url uses ${BASE}, but the environment variable BASE is not set.");
  });
});

const Question = domainType("Question", z.object({ text: z.string().describe("The question") }));

describe("createMcpServer", () => {
  async function serve(options: Parameters<typeof createMcpServer>[0]) {
    const endpoint = await serveMcpOverHttp(() => createMcpServer(options));
    cleanups.push(() => endpoint.close());
    return McpToolFactory.create(clientsFor({ ours: { url: endpoint.url } }));
  }

  it("serves our tools with their definitions, errors and throws as isError, _meta as the call's context", async () => {
    const seen: unknown[] = [];
    const tools = [
      Tool.create(
        "whoami",
        "Says which tenant called",
        Tool.InputSchema.of(Tool.Parameter.string("greeting", "How to greet")),
        async (input, context) => {
          seen.push(context?.toRecord());
          return ToolResult.text(`${JSON.parse(input).greeting}, ${context?.get("tenantId") ?? "nobody"}`);
        },
      ),
      Tool.create("soft", "Fails softly", async () => ToolResult.error("soft failure")),
      Tool.create("hard", "Throws", async () => {
        throw new Error("hard failure");
      }),
    ];
    const factory = await serve({ name: "ours", version: "1.2.3", tools });
    const whoami = await factory.requiredToolByName("whoami");
    expect(whoami.definition.description).toBe("Says which tenant called");
    expect(whoami.definition.inputSchema.jsonSchema).toMatchObject({
      properties: { greeting: { type: "string", description: "How to greet" } },
      required: ["greeting"],
    });
    expect((await whoami.call('{"greeting":"Hi"}', ToolCallContext.of({ tenantId: "acme" }))).content).toBe(
      "Hi, acme",
    );
    expect(seen).toEqual([{ tenantId: "acme" }]);
    expect(await (await factory.requiredToolByName("soft")).call("{}")).toMatchObject({
      kind: "error",
      content: "soft failure",
    });
    expect(await (await factory.requiredToolByName("hard")).call("{}")).toMatchObject({
      kind: "error",
      content: "hard failure",
    });
  });

  it("serves each deployed agent as a tool taking its input type and returning its result", async () => {
    const platform = AgentPlatform.create({ models: {} });
    platform.deploy(
      defineAgent({
        name: "Answerer",
        description: "Answers questions",
        actions: [
          {
            name: "answer",
            input: Question,
            output: domainType("Answer", z.object({ text: z.string() })),
            achievesGoal: { description: "Answered" },
            run: (question: { text: string }) => ({ text: `re: ${question.text}` }),
          },
        ],
      }),
    );
    const factory = await serve({ name: "agents", platform });
    const answerer = await factory.requiredToolByName("Answerer");
    expect(answerer.definition.description).toBe("Answers questions");
    expect(answerer.definition.inputSchema.jsonSchema).toMatchObject({
      properties: { text: { type: "string", description: "The question" } },
    });
    expect((await answerer.call('{"text":"why?"}')).content).toBe('{"text":"re: why?"}');
    const bad = await answerer.call('{"text":42}');
    expect(bad.kind).toBe("error");
    // The gate validates served arguments before the agent tool sees them.
    expect(bad.content).toMatch(/^Invalid arguments for tool 'Answerer'/);
  });
});

/** A 127.0.0.1 port nothing listens on (one just released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("MCP over Streamable HTTP: failures", () => {
  it("names a server nobody listens on and its cause, without waiting for a timeout, and tries again on the next use", async () => {
    const url = `http://127.0.0.1:${await deadPort()}/mcp`;
    const clients = clientsFor({ remote: { url, connectTimeoutMs: 30_000 } });
    const group = McpToolGroup.create({
      role: "remote",
      description: "Remote tools",
      clients,
      required: true,
    });
    const started = Date.now();
    for (let attempt = 0; attempt < 2; attempt++) {
      const failure = await group.tools().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(McpServerError);
      expect((failure as Error).message).toMatch(
        /^MCP server 'remote' could not be reached: .*fetch failed.*ECONNREFUSED/,
      );
      expect(group.toolsInitialized).toBe(false);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(McpToolFactory.create(clients).requiredToolByName("echo")).rejects.toThrow(
      /^MCP tool 'echo' not found\. No MCP tools are available - check MCP client connections\. \(unreachable: MCP server 'remote' could not be reached/,
    );
  });

  it("names the HTTP status of a URL that refuses the MCP handshake, even with an empty body", async () => {
    const http = createServer((request, response) =>
      // A server that wants a token it did not get (or a path that is no MCP endpoint).
      response.writeHead(request.headers.authorization ? 404 : 401).end(),
    );
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const { port } = http.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/mcp`;
    const clients = clientsFor({
      noToken: { url, connectTimeoutMs: 30_000 },
      wrongPath: { url, headers: { Authorization: "Bearer t" }, connectTimeoutMs: 30_000 },
    });
    const group = (server: string) =>
      McpToolGroup.create({
        role: server,
        description: server,
        clients: clients.select([server]),
        required: true,
      });
    await expect(group("noToken").tools()).rejects.toThrow(
      /^MCP server 'noToken' could not be reached: .*HTTP 401 Unauthorized/,
    );
    await expect(group("wrongPath").tools()).rejects.toThrow(
      /^MCP server 'wrongPath' could not be reached: .*HTTP 404 Not Found/,
    );
    // A bare { url } answered 404 was tried over HTTP+SSE too, and both failures are named;
    // a 401 is an auth problem, not an older server: no fallback.
    await expect(group("wrongPath").tools()).rejects.toThrow(
      /HTTP 404 Not Found\); over HTTP\+SSE: SSE error: Non-200 status code \(404\)$/,
    );
    await expect(group("noToken").tools()).rejects.not.toThrow(/HTTP\+SSE/);
  });

  it("answers a call on closed clients in-band, naming the server", async () => {
    const { url } = await httpFixture();
    const clients = clientsFor({ remote: { url } });
    const echo = await McpToolFactory.create(clients).requiredToolByName("echo");
    expect((await echo.call('{"text":"before"}')).content).toBe("before");
    await clients.close();
    expect(await echo.call('{"text":"after"}')).toMatchObject({
      kind: "error",
      content: "MCP server 'remote' was closed.",
    });
  });

  it("refuses a config group over a server that is not configured, or without a tool list", () => {
    expect(() =>
      AgentPlatform.create({
        models: {},
        mcpServers: { weather: { url: "http://127.0.0.1:1/mcp" } },
        toolGroups: { web: { tools: ["search"], servers: ["browser"] } },
      }),
    ).toThrow("No MCP server named 'browser'. Configured servers: [weather]");
    expect(() =>
      AgentPlatform.create({
        models: {},
        mcpServers: {},
        toolGroups: { web: { description: "Web" } as never },
      }),
    ).toThrow("toolGroups.web.tools must be a list of tool names");
  });
});

describe("MCP over the legacy HTTP+SSE transport", () => {
  it("calls a server configured as { type: 'sse', url }, with its headers, over SSE only", async () => {
    const { url, log } = await httpFixture("sse");
    const clients = clientsFor({ legacy: { type: "sse", url, headers: { Authorization: "Bearer s-1" } } });
    const echo = await McpToolFactory.create(clients).requiredToolByName("echo");
    expect(await echo.call('{"text":"over sse"}')).toEqual(ToolResult.text("over sse"));
    expect(logLines(log)).toContain("sse connect Bearer s-1");
    // Nothing tried Streamable HTTP first.
    expect(logLines(log).filter((line) => line.startsWith("not found"))).toEqual([]);
  });

  it("falls back to SSE for a bare { url } whose server answers the Streamable HTTP handshake 404", async () => {
    const { url, log } = await httpFixture("sse");
    const clients = clientsFor({ legacy: { url } });
    const group = McpToolGroup.create({ role: "legacy", description: "legacy", clients });
    const names = (await group.tools()).map((tool) => tool.definition.name);
    expect(names).toContain("echo");
    const echo = await McpToolFactory.create(clients).requiredToolByName("echo");
    expect(await echo.call('{"text":"after fallback"}')).toEqual(ToolResult.text("after fallback"));
    const lines = logLines(log);
    expect(lines).toContain("not found POST /sse");
    expect(lines.filter((line) => line.startsWith("sse connect"))).toHaveLength(1);
  });

  it("does not fall back when the config says Streamable HTTP: the 404 is the error", async () => {
    const { url } = await httpFixture("sse");
    const clients = clientsFor({ strict: { type: "http", url } });
    await expect(McpToolFactory.create(clients).requiredToolByName("echo")).rejects.toThrow(
      /MCP server 'strict' could not be reached: .*HTTP 404/,
    );
  });
});
