import { afterEach, describe, expect, it } from "vitest";
import {
  ConfigurationError,
  createMcpServer,
  McpClients,
  McpServerCall,
  McpToolFactory,
  serveMcpOverHttp,
  Tool,
  ToolResult,
} from "../src/index.js";

// Resumable SSE streams (MCP 2025-11-25, SEP-1699) on serveMcpOverHttp's
// sessions: a priming event with `retry` opens each POST stream; a tool may let
// go of its stream (McpServerCall.closeStream) and the client, reconnecting
// with Last-Event-ID, still gets the result. Our own client on the other end.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let closed: boolean[] = [];
const polling = Tool.create("slow_report", "Lets go of the connection, then reports", async () => {
  closed.push(McpServerCall.current()?.closeStream() ?? false);
  await new Promise((resolve) => setTimeout(resolve, 150));
  return ToolResult.text("report ready");
});

async function serve(options: { resumableEvents?: number; sseRetryMs?: number } = {}) {
  closed = [];
  const endpoint = await serveMcpOverHttp(
    () => createMcpServer({ name: "polling", tools: [polling] }),
    options,
  );
  cleanups.push(() => endpoint.close());
  return endpoint;
}

const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** Opens a session by hand; returns its id. */
async function initialize(url: string): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  await response.text();
  return response.headers.get("mcp-session-id") as string;
}

async function callRaw(url: string, session: string): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "slow_report", arguments: {} },
    }),
  });
  return response.text();
}

describe("resumable SSE streams (serveMcpOverHttp sessions)", () => {
  it("opens each tool call's stream with a priming event carrying the retry", async () => {
    const endpoint = await serve({ sseRetryMs: 250 });
    const body = await callRaw(endpoint.url, await initialize(endpoint.url));
    expect(body.startsWith("id: ")).toBe(true);
    expect(body.split("\n").slice(1, 3)).toEqual(["retry: 250", "data: "]);
    // The tool let go of the stream, so the result is not on it: it waits for the resumed one.
    expect(body).not.toContain("report ready");
    expect(closed).toEqual([true]);
  });

  it("delivers the result of a call whose stream the tool closed, on the client's resumed stream", async () => {
    const endpoint = await serve({ sseRetryMs: 100 });
    // Resumable streams are 2025-11-25's: the client is told to speak it (sessions, SSE streams).
    const clients = McpClients.fromConfig({
      mcpServers: { polling: { type: "http", url: endpoint.url, protocolVersion: "2025-11-25" } },
    });
    cleanups.push(() => clients.close());
    const tool = await McpToolFactory.create(clients).requiredToolByName("slow_report");
    const result = await tool.call("{}");
    expect(result.content).toBe("report ready");
    expect(closed).toEqual([true]);
  });

  it("at 2026-07-28 (the client's default with this server), a tool cannot let go of a stream and the result comes in the answer", async () => {
    const endpoint = await serve({ sseRetryMs: 100 });
    const clients = McpClients.fromConfig({ mcpServers: { polling: { type: "http", url: endpoint.url } } });
    cleanups.push(() => clients.close());
    const tool = await McpToolFactory.create(clients).requiredToolByName("slow_report");
    expect((await tool.call("{}")).content).toBe("report ready");
    expect(closed).toEqual([false]);
  });

  it("with resumableEvents 0: no priming event, and a tool cannot let go of its stream", async () => {
    const endpoint = await serve({ resumableEvents: 0 });
    const body = await callRaw(endpoint.url, await initialize(endpoint.url));
    expect(body.startsWith("event: message")).toBe(true);
    expect(body).toContain("report ready");
    expect(closed).toEqual([false]);
  });

  it("refuses a negative or fractional resumableEvents and a bad sseRetryMs", async () => {
    const factory = () => createMcpServer({ name: "x", tools: [polling] });
    await expect(serveMcpOverHttp(factory, { resumableEvents: -1 })).rejects.toThrow(ConfigurationError);
    await expect(serveMcpOverHttp(factory, { resumableEvents: 1.5 })).rejects.toThrow(/resumableEvents/);
    await expect(serveMcpOverHttp(factory, { sseRetryMs: Number.NaN })).rejects.toThrow(/sseRetryMs/);
  });
});
