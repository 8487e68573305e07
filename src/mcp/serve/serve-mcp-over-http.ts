import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { McpServer } from "@modelcontextprotocol/server";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { isLoopbackHost, type McpHttpRefusal, mcpHttpGuard } from "../mcp-http-guard.js";
import { jsonRpcError, type McpHttpHandler, routeByRevision } from "./http-revision-router.js";
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
  /**
   * Stateful: the most sessions kept at once. When full, the least recently
   * used session with no open stream or request is ended to make room; an
   * initialize is answered 503 only when every session is in use. @default 100
   */
  readonly maxSessions?: number;
  /**
   * Stateful: the most sessions one client (one remote address) keeps at
   * once; beyond it, that client's own least recently used idle session is
   * ended, or the initialize is answered 429 when all of them are in use.
   * Every local process shares the loopback address, so clients on
   * 127.0.0.1 / ::1 are held to it only when it is set explicitly.
   * @default 20 (remote clients)
   */
  readonly maxSessionsPerClient?: number;
  /** Stateful: a session holding an open stream (its GET) but sending no requests for this long is closed. @default 1800000 (30 minutes) */
  readonly sessionIdleMs?: number;
  /**
   * Stateful: a session with no open stream and no request for this long is
   * closed (a client that went away without DELETE, as the SDK's `close()`
   * does). @default 120000 (2 minutes), or `sessionIdleMs` when that is shorter
   */
  readonly streamlessSessionIdleMs?: number;
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

/** `value` when it is a positive number, `fallback` when it is not given. */
function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(`serveMcpOverHttp: '${name}' must be a positive number (got ${value}).`);
  }
  return value;
}

function serve(
  server: McpServer,
  transport: NodeStreamableHTTPServerTransport,
  request: IncomingMessage,
  response: ServerResponse,
  parsedBody: unknown,
): void {
  server
    .connect(transport)
    .then(() => transport.handleRequest(request, response, parsedBody))
    .catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
}

/** Serves each POST with a fresh server and transport; nothing outlives the request. */
function statelessHandler(createMcpServer: () => McpServer): McpHttpHandler["handle"] {
  return (request, response, parsedBody) => {
    if (request.method !== "POST") {
      response.writeHead(405, { allow: "POST" }).end("Method not allowed");
      return;
    }
    const server = createMcpServer();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    serve(server, transport, request, response, parsedBody);
  };
}

interface Session {
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly server: McpServer;
  /** Who opened it (the remote address). */
  readonly client: string;
  lastUsed: number;
  /** Responses still open on it: its GET stream, and requests being answered. */
  open: number;
}

interface SessionLimits {
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  /** Whether the per-client cap applies to loopback peers too (only when set explicitly). */
  readonly perClientOnLoopback: boolean;
  readonly sessionIdleMs: number;
  readonly streamlessSessionIdleMs: number;
  readonly resumableEvents: number;
  readonly sseRetryMs: number;
}

/**
 * Keeps one server and transport per session (`Mcp-Session-Id`), within
 * {@link SessionLimits}: idle sessions close, and a full table makes room by
 * ending the least recently used session nobody is using.
 */
function statefulHandler(createMcpServer: () => McpServer, limits: SessionLimits): McpHttpHandler {
  // A Map iterates in insertion order; each use re-inserts, so the first idle entry is the least recently used.
  const sessions = new Map<string, Session>();
  const end = async (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  };
  const touch = (id: string, session: Session): void => {
    session.lastUsed = Date.now();
    sessions.delete(id);
    sessions.set(id, session);
  };
  /** The least recently used session nobody is using (of `client`, when given). */
  const evictable = (client?: string): string | undefined => {
    for (const [id, session] of sessions) {
      if (session.open === 0 && (client === undefined || session.client === client)) return id;
    }
    return undefined;
  };
  const sweepEvery = Math.max(
    50,
    Math.min(30_000, limits.sessionIdleMs / 2, limits.streamlessSessionIdleMs / 2),
  );
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      const limit = session.open === 0 ? limits.streamlessSessionIdleMs : limits.sessionIdleMs;
      if (now - session.lastUsed > limit) void end(id);
    }
  }, sweepEvery);
  sweep.unref();
  /** Counts `response` as open on `session` until it closes. */
  const hold = (session: Session, response: ServerResponse): void => {
    session.open++;
    response.once("close", () => {
      session.open--;
      session.lastUsed = Date.now();
    });
  };
  const handle = (request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): void => {
    const header = request.headers["mcp-session-id"];
    const id = Array.isArray(header) ? header[0] : header;
    if (id !== undefined) {
      const session = sessions.get(id);
      if (!session) {
        jsonRpcError(response, 404, "Session not found: start a new one with initialize.");
        return;
      }
      touch(id, session);
      hold(session, response);
      session.transport.handleRequest(request, response, parsedBody).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
      return;
    }
    if (request.method !== "POST") {
      jsonRpcError(response, 400, "An Mcp-Session-Id header is required: start a session with initialize.");
      return;
    }
    const client = request.socket.remoteAddress ?? "unknown";
    // Every local process shares the loopback address, so by default it tells no clients apart there: only the table's own limit applies.
    const perClient =
      limits.perClientOnLoopback || !isLoopbackPeer(client)
        ? limits.maxSessionsPerClient
        : Number.POSITIVE_INFINITY;
    let ownCount = 0;
    for (const session of sessions.values()) if (session.client === client) ownCount++;
    if (ownCount >= perClient) {
      const own = evictable(client);
      if (own === undefined) {
        jsonRpcError(
          response,
          429,
          `This server keeps at most ${perClient} sessions per client, and all of yours are in use; end one (DELETE) or try again later.`,
        );
        return;
      }
      void end(own);
    } else if (sessions.size >= limits.maxSessions) {
      const oldest = evictable();
      if (oldest === undefined) {
        jsonRpcError(
          response,
          503,
          `This server keeps at most ${limits.maxSessions} sessions, and all are in use; try again later.`,
        );
        return;
      }
      void end(oldest);
    }
    const server = createMcpServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(limits.resumableEvents > 0
        ? { eventStore: new SseEventStore(limits.resumableEvents), retryInterval: limits.sseRetryMs }
        : {}),
      onsessioninitialized: (sessionId: string) => {
        const session: Session = { transport, server, client, lastUsed: Date.now(), open: 0 };
        sessions.set(sessionId, session);
        hold(session, response);
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
    serve(server, transport, request, response, parsedBody);
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
  const legacy =
    options.sessions === "stateless"
      ? { handle: statelessHandler(createMcpServer), close: async () => undefined }
      : statefulHandler(createMcpServer, {
          maxSessions: positive(options.maxSessions, 100, "maxSessions"),
          maxSessionsPerClient: positive(options.maxSessionsPerClient, 20, "maxSessionsPerClient"),
          perClientOnLoopback: options.maxSessionsPerClient !== undefined,
          sessionIdleMs: positive(options.sessionIdleMs, 30 * 60_000, "sessionIdleMs"),
          streamlessSessionIdleMs: positive(
            options.streamlessSessionIdleMs,
            Math.min(120_000, options.sessionIdleMs ?? 120_000),
            "streamlessSessionIdleMs",
          ),
          resumableEvents,
          sseRetryMs,
        });
  const handler = routeByRevision(createMcpServer, legacy);
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

/** Whether a socket's remote address is this machine (IPv4, IPv6 or IPv4-mapped loopback). */
function isLoopbackPeer(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}
