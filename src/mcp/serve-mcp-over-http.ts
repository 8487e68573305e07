import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { isLoopbackHost, type McpHttpRefusal, mcpHttpGuard } from "./mcp-http-guard.js";
import { SseEventStore } from "./sse-event-store.js";

/** Options of {@link serveMcpOverHttp}. */
export interface ServeMcpOverHttpOptions {
  /** The port; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** The interface to listen on. @default "127.0.0.1" */
  readonly host?: string;
  /** The endpoint's path. @default "/mcp" */
  readonly path?: string;
  /**
   * `Host` values accepted besides `localhost`, `127.0.0.1` and `[::1]` (any
   * port) and the listening address itself: `name` for any port,
   * `name:port` for one. Any other `Host` is answered 403 (DNS rebinding).
   * @default []
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Browser origins accepted besides this server's own loopback ones
   * (`http://localhost:<port>` and the like), matched exactly
   * (`https://app.example.com`); a request with another `Origin` is answered
   * 403. Requests without `Origin` (non-browser clients) pass. @default []
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * A bearer token every request must carry (`Authorization: Bearer <token>`),
   * compared in constant time; a request without it is answered 401. Required
   * when `host` is not a loopback address. @default none
   */
  readonly token?: string;
  /**
   * `"stateful"`: each client gets a session (an `Mcp-Session-Id`, one
   * server from `createServer` for its life, a GET stream for requests the
   * server sends on its own), so elicitation, sampling, log levels and
   * resource subscriptions work. `"stateless"`: each POST gets a fresh server
   * and nothing is kept, for deployments behind a load balancer without sticky
   * sessions; a tool can still send progress and log messages while it runs,
   * but cannot ask the client anything. @default "stateful"
   */
  readonly sessions?: "stateful" | "stateless";
  /** Stateful: the most sessions kept at once; an initialize beyond it is answered 503. @default 100 */
  readonly maxSessions?: number;
  /** Stateful: a session without requests for this long is closed. @default 1800000 (30 minutes) */
  readonly sessionIdleMs?: number;
  /**
   * Stateful: the SSE events each session keeps so a client whose stream
   * broke off (or that a tool let go, `McpServerCall.closeStream()`) resumes
   * it with `Last-Event-ID` (MCP 2025-11-25, SEP-1699); each stream opens
   * with a priming event carrying `retry`. 0 turns resumability off. @default 100
   */
  readonly resumableEvents?: number;
  /** Stateful: the `retry` (ms) a resumable stream's priming event tells the client to wait before reconnecting. @default 1000 */
  readonly sseRetryMs?: number;
}

/** A running Streamable HTTP endpoint. */
export interface McpHttpEndpoint {
  /** The endpoint, e.g. `http://127.0.0.1:53211/mcp`. */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** Stops listening and ends open requests. */
  close(): Promise<void>;
}

function refuse(response: ServerResponse, refusal: McpHttpRefusal): void {
  response
    .writeHead(refusal.status, { "content-type": "application/json", ...refusal.headers })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: refusal.message }, id: null }));
}

function jsonRpcError(response: ServerResponse, status: number, message: string): void {
  response
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

function serve(
  server: McpServer,
  transport: StreamableHTTPServerTransport,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  server
    .connect(transport)
    .then(() => transport.handleRequest(request, response))
    .catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
}

interface McpHttpHandler {
  handle(request: IncomingMessage, response: ServerResponse): void;
  close(): Promise<void>;
}

/** Serves each POST with a fresh server and transport; nothing outlives the request. */
function statelessHandler(createMcpServer: () => McpServer): McpHttpHandler["handle"] {
  return (request, response) => {
    if (request.method !== "POST") {
      response.writeHead(405, { allow: "POST" }).end("Method not allowed");
      return;
    }
    const server = createMcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    serve(server, transport, request, response);
  };
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  lastUsed: number;
}

/** Keeps one server and transport per session (`Mcp-Session-Id`); closes idle ones. */
function statefulHandler(
  createMcpServer: () => McpServer,
  options: { maxSessions: number; sessionIdleMs: number; resumableEvents: number; sseRetryMs: number },
): McpHttpHandler {
  const sessions = new Map<string, Session>();
  const end = async (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  };
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (now - session.lastUsed > options.sessionIdleMs) void end(id);
    },
    Math.min(60_000, options.sessionIdleMs),
  );
  sweep.unref();
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const header = request.headers["mcp-session-id"];
    const id = Array.isArray(header) ? header[0] : header;
    if (id !== undefined) {
      const session = sessions.get(id);
      if (!session) {
        jsonRpcError(response, 404, "Session not found: start a new one with initialize.");
        return;
      }
      session.lastUsed = Date.now();
      session.transport.handleRequest(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
      return;
    }
    if (request.method !== "POST") {
      jsonRpcError(response, 400, "An Mcp-Session-Id header is required: start a session with initialize.");
      return;
    }
    if (sessions.size >= options.maxSessions) {
      jsonRpcError(
        response,
        503,
        `This server keeps at most ${options.maxSessions} sessions; try again later.`,
      );
      return;
    }
    const server = createMcpServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(options.resumableEvents > 0
        ? { eventStore: new SseEventStore(options.resumableEvents), retryInterval: options.sseRetryMs }
        : {}),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server, lastUsed: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) void end(transport.sessionId);
    };
    // A first POST that was no initialize leaves no session: its server ends with the response.
    response.on("close", () => {
      if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) {
        void transport.close();
        void server.close();
      }
    });
    serve(server, transport, request, response);
  };
  return {
    handle,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map(end));
    },
  };
}

/**
 * Serves MCP over Streamable HTTP, with sessions (the default) or stateless
 * (`sessions: "stateless"`: each POST gets a fresh server from
 * `createServer`). Before anything is read, on every path and method, `Host`
 * and `Origin` are checked (the MCP spec's DNS-rebinding rule) and, when set,
 * the bearer `token`. Listening on anything but a loopback address without a
 * `token` is a {@link ConfigurationError}.
 */

export async function serveMcpOverHttp(
  createMcpServer: () => McpServer,
  options: ServeMcpOverHttpOptions = {},
): Promise<McpHttpEndpoint> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  if (options.token !== undefined && options.token.trim().length === 0) {
    throw new ConfigurationError(
      "serveMcpOverHttp: the token is empty; give the token clients must send, or none.",
    );
  }
  if (!isLoopbackHost(host) && options.token === undefined) {
    throw new ConfigurationError(
      `Serving MCP on ${host} makes the agents reachable from the network: give a token (the 'token' option; --token or EMBABEL_MCP_TOKEN on the command line), or listen on 127.0.0.1.`,
    );
  }
  const resumableEvents = options.resumableEvents ?? 100;
  const sseRetryMs = options.sseRetryMs ?? 1000;
  if (!Number.isInteger(resumableEvents) || resumableEvents < 0) {
    throw new ConfigurationError(
      `serveMcpOverHttp: resumableEvents must be a whole number, 0 or more (0 turns resumability off); got ${resumableEvents}.`,
    );
  }
  if (!Number.isInteger(sseRetryMs) || sseRetryMs < 0) {
    throw new ConfigurationError(
      `serveMcpOverHttp: sseRetryMs must be a whole number of milliseconds; got ${sseRetryMs}.`,
    );
  }
  const handler =
    options.sessions === "stateless"
      ? { handle: statelessHandler(createMcpServer), close: async () => undefined }
      : statefulHandler(createMcpServer, {
          maxSessions: options.maxSessions ?? 100,
          sessionIdleMs: options.sessionIdleMs ?? 30 * 60_000,
          resumableEvents,
          sseRetryMs,
        });
  let guard: ReturnType<typeof mcpHttpGuard> | undefined;
  const http: Server = createServer((request, response) => {
    const refusal = guard ? guard(request.headers) : { status: 403 as const, message: "Not listening yet." };
    if (refusal) {
      refuse(response, refusal);
      return;
    }
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== path) {
      response.writeHead(404).end("Not found");
      return;
    }
    handler.handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  guard = mcpHttpGuard({
    port,
    listenHost: host,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`,
    port,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
