import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer, McpServerCall, serveMcpOverHttp, Tool, ToolResult } from "../src/index.js";

// serveMcpOverHttp with sessions (the default) and without, used by the SDK's own client.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const asking = Tool.create("ask_name", "Asks the user for a name", async () => {
  const answer = await McpServerCall.current()?.elicit({
    message: "Your name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  });
  return ToolResult.text(`Hello, ${String(answer?.content?.name)}`);
});

async function serve(sessions: "stateful" | "stateless") {
  const endpoint = await serveMcpOverHttp(() => createMcpServer({ name: "sessions", tools: [asking] }), {
    sessions,
  });
  cleanups.push(() => endpoint.close());
  return endpoint;
}

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client(
    { name: "sessions-test", version: "1.0.0" },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

describe("serveMcpOverHttp sessions", () => {
  it("gives each client a session, over which a tool can ask the user (elicitation)", async () => {
    const endpoint = await serve("stateful");
    const { client, transport } = await connect(endpoint.url);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.callTool({ name: "ask_name", arguments: {} })).toEqual({
      content: [{ type: "text", text: "Hello, Ada" }],
    });
  });

  it("answers an unknown session 404 and a GET without one 400", async () => {
    const endpoint = await serve("stateful");
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const unknown = await fetch(endpoint.url, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": "no-such-session" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(unknown.status).toBe(404);
    const get = await fetch(endpoint.url, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(400);
    await get.body?.cancel();
  });

  it("stateless: keeps no session, and a tool asking the user fails at once with isError", async () => {
    const endpoint = await serve("stateless");
    const { client, transport } = await connect(endpoint.url);
    expect(transport.sessionId).toBeUndefined();
    const result = await client.callTool({ name: "ask_name", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/elicitation/i);
  });
});

describe("serveMcpOverHttp session budgets (hostile or careless clients)", () => {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const initialize = (url: string) =>
    fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "flood", version: "1" },
        },
      }),
    });

  async function serveWith(options: Parameters<typeof serveMcpOverHttp>[1]) {
    const endpoint = await serveMcpOverHttp(
      () => createMcpServer({ name: "budgets", tools: [asking] }),
      options,
    );
    cleanups.push(() => endpoint.close());
    return endpoint;
  }

  /** Connects an SDK client, lists the tools, and says whether that worked (its status otherwise). */
  async function served(url: string): Promise<string> {
    const client = new Client({ name: "legit", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { tools } = await client.listTools();
      return tools.length === 1 ? "ok" : "no tools";
    } catch (error) {
      return /\b(\d{3})\b/.exec(String(error))?.[1] ?? String(error);
    } finally {
      await client.close();
    }
  }

  it("101+ initialize POSTs (the review's flood) do not lock a new client out", async () => {
    const endpoint = await serveWith({});
    const statuses: Record<number, number> = {};
    for (let index = 0; index < 150; index++) {
      const response = await initialize(endpoint.url);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      await response.body?.cancel();
    }
    // Each flood session was idle (no stream, no request) when the next came: it made room.
    expect(statuses).toEqual({ 200: 150 });
    expect(await served(endpoint.url)).toBe("ok");
  });

  it("SDK clients that close() without DELETE leak no session: 7 clients on maxSessions 5 are all served", async () => {
    const endpoint = await serveWith({ maxSessions: 5 });
    const results: string[] = [];
    for (let index = 0; index < 7; index++) results.push(await served(endpoint.url));
    expect(results).toEqual(Array(7).fill("ok"));
  });

  it("a client whose sessions are all in use (open streams) gets 429 beyond its cap; an idle one is evicted instead", async () => {
    const endpoint = await serveWith({ maxSessionsPerClient: 3 });
    const held: Client[] = [];
    for (let index = 0; index < 3; index++) {
      const client = new Client({ name: "holder", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      await client.listTools();
      held.push(client);
      cleanups.push(() => client.close());
    }
    // Let each client's GET stream open.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await initialize(endpoint.url);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(/at most 3 sessions per client/);
    // One holder goes away (its stream closes): the next client takes its place.
    await held[0]?.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await served(endpoint.url)).toBe("ok");
    // The two still holding streams were not evicted.
    for (const client of held.slice(1)) expect((await client.listTools()).tools).toHaveLength(1);
  });

  it("a session with no stream ends after streamlessSessionIdleMs; one with an open stream stays", async () => {
    const endpoint = await serveWith({ streamlessSessionIdleMs: 200 });
    const flood = await initialize(endpoint.url);
    const id = flood.headers.get("mcp-session-id");
    await flood.body?.cancel();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const client = new Client({ name: "streaming", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    cleanups.push(() => client.close());
    await new Promise((resolve) => setTimeout(resolve, 800));
    const stale = await fetch(endpoint.url, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": id as string, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
    });
    expect(stale.status).toBe(404);
    expect((await client.listTools()).tools).toHaveLength(1);
  });

  it("refuses limits that are not positive numbers", async () => {
    await expect(serveWith({ maxSessions: 0 })).rejects.toThrow(/'maxSessions' must be a positive number/);
  });
});
