// The HTTP entry's routing by MCP revision (2026-07-28 per request, 2025-11-25
// to the session or stateless handler) and the bounded reading of a POST's body.
import type { IncomingMessage, ServerResponse } from "node:http";
import { toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest, type McpServer } from "@modelcontextprotocol/server";

/** Answers `response` with a JSON-RPC error of `status` and `code`. */
export function jsonRpcError(response: ServerResponse, status: number, message: string, code = -32000): void {
  response
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** A handler of the HTTP entry's requests. */
export interface McpHttpHandler {
  /** Serves a request of the 2025-11-25 wire; `parsedBody` is a POST's body, already read. */
  handle(request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): void;
  close(): Promise<void>;
}

/** The largest request body read (the SDK's own default bound). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A POST's body, parsed; `undefined` answered already (too large, or not JSON). */
async function readJsonBody(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<{ body: unknown } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      jsonRpcError(
        response,
        413,
        `Request body too large: this server accepts up to ${MAX_BODY_BYTES} bytes.`,
        -32600,
      );
      request.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    jsonRpcError(response, 400, "Parse error: the body is not JSON.", -32700);
    return undefined;
  }
}

/**
 * Routes each request by MCP revision: one of MCP 2026-07-28 (its `_meta`
 * envelope) to the SDK's per-request handler, which keeps nothing between
 * requests; any other (2025-11-25: initialize, a session's requests, GET and
 * DELETE) to `legacy`.
 */
export function routeByRevision(createMcpServer: () => McpServer, legacy: McpHttpHandler): McpHttpHandler {
  const modern = createMcpHandler(() => createMcpServer(), { legacy: "reject" });
  const serveModern = toNodeHandler(modern);
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    if (request.method !== "POST" || request.headers["mcp-session-id"] !== undefined) {
      legacy.handle(request, response);
      return;
    }
    void (async () => {
      const read = await readJsonBody(request, response);
      if (!read) return;
      const web = await toWebRequest(request, read.body);
      if (await isLegacyRequest(web, read.body)) legacy.handle(request, response, read.body);
      else await serveModern(request, response, read.body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  };
  return {
    handle,
    close: async () => {
      await modern.close();
      await legacy.close();
    },
  };
}
