import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  createMcpServer,
  McpClients,
  McpToolFactory,
  serveMcpOverHttp,
  Tool,
  ToolResult,
} from "../src/index.js";

// OpenTelemetry across an MCP hop: the client's `tools/call` span puts its
// traceparent in the request's _meta (SEP-414), the server continues it, so one
// trace spans client and server. The real OpenTelemetry SDK, registered
// globally as an application would; a real HTTP hop on 127.0.0.1.

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  exporter.reset();
});

const tools = [
  Tool.create("echo", "Echoes", async (input) => ToolResult.text(input)),
  Tool.create("fail", "Fails", async () => {
    throw new Error("no luck");
  }),
];

async function serve() {
  const endpoint = await serveMcpOverHttp(() => createMcpServer({ name: "traced", tools }));
  cleanups.push(() => endpoint.close());
  return endpoint;
}

describe("a trace across an MCP hop", () => {
  it("continues the client's tools/call span on the server, in one trace", async () => {
    const endpoint = await serve();
    const clients = McpClients.fromConfig({ mcpServers: { traced: { type: "http", url: endpoint.url } } });
    cleanups.push(() => clients.close());
    const echo = await McpToolFactory.create(clients).requiredToolByName("echo");
    expect((await echo.call('{"x":1}')).content).toBe('{"x":1}');
    const spans = exporter.getFinishedSpans().filter((span) => span.name === "tools/call echo");
    const client = spans.find((span) => span.kind === SpanKind.CLIENT);
    const server = spans.find((span) => span.kind === SpanKind.SERVER);
    expect(client?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "gen_ai.operation.name": "execute_tool",
      "mcp.server.name": "traced",
    });
    expect(server?.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo" });
    expect(server?.spanContext().traceId).toBe(client?.spanContext().traceId);
    expect(server?.parentSpanContext?.spanId).toBe(client?.spanContext().spanId);
    expect(server?.parentSpanContext?.isRemote).toBe(true);
  });

  it("marks both spans of a failed tool call as errors", async () => {
    const endpoint = await serve();
    const clients = McpClients.fromConfig({ mcpServers: { traced: { type: "http", url: endpoint.url } } });
    cleanups.push(() => clients.close());
    const fail = await McpToolFactory.create(clients).requiredToolByName("fail");
    expect((await fail.call("{}")).kind).toBe("error");
    const spans = exporter.getFinishedSpans().filter((span) => span.name === "tools/call fail");
    expect(spans.map((span) => [span.kind, span.status.code]).sort()).toEqual(
      [
        [SpanKind.SERVER, SpanStatusCode.ERROR],
        [SpanKind.CLIENT, SpanStatusCode.ERROR],
      ].sort(),
    );
  });

  it("ignores a malformed traceparent from a client: the server span starts its own trace", async () => {
    const endpoint = await serve();
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await fetch(endpoint.url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    });
    await init.text();
    const session = init.headers.get("mcp-session-id") as string;
    const forged = "00-00000000000000000000000000000000-0000000000000000-01";
    for (const traceparent of [
      forged,
      "garbage",
      "00-ABCDEF0123456789ABCDEF0123456789-0123456789abcdef-01",
    ]) {
      const response = await fetch(endpoint.url, {
        method: "POST",
        headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "echo", arguments: {}, _meta: { traceparent } },
        }),
      });
      await response.text();
    }
    const servers = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);
    expect(servers).toHaveLength(3);
    for (const span of servers) expect(span.parentSpanContext).toBeUndefined();
  });
});
