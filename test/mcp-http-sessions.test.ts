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
