import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** Options of {@link serveMcpOverHttp}. */
export interface ServeMcpOverHttpOptions {
  /** The port; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** The interface to listen on. @default "127.0.0.1" */
  readonly host?: string;
  /** The endpoint's path. @default "/mcp" */
  readonly path?: string;
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

/**
 * Serves MCP over Streamable HTTP (stateless: each POST gets a fresh server
 * from `createServer`, so no session outlives its request).
 */
export async function serveMcpOverHttp(
  createMcpServer: () => McpServer,
  options: ServeMcpOverHttpOptions = {},
): Promise<McpHttpEndpoint> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const http: Server = createServer((request, response) => {
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
  return {
    url: `http://${host}:${port}${path}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
