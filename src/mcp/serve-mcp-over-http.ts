import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { isLoopbackHost, type McpHttpRefusal, mcpHttpGuard } from "./mcp-http-guard.js";

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

/**
 * Serves MCP over Streamable HTTP (stateless: each POST gets a fresh server
 * from `createServer`, so no session outlives its request). Before anything
 * is read, `Host` and `Origin` are checked (the MCP spec's DNS-rebinding
 * rule) and, when set, the bearer `token`. Listening on anything but a
 * loopback address without a `token` is a {@link ConfigurationError}.
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
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
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
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
