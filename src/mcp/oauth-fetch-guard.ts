import { McpServerError } from "../errors/mcp-server-error.js";
import { isLoopbackHost } from "./mcp-http-guard.js";

/** The `fetch` an MCP client transport takes (the SDK's `FetchLike`). */
export type GuardedFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Whether a URL may carry credentials: `https`, or plain `http` to this
 * machine only.
 */
export function isSecureOrLoopback(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

/**
 * The `fetch` of an HTTP MCP server configured with OAuth client credentials:
 * every request of its transport (the MCP calls, metadata discovery, the
 * token request that carries the client secret) may go only to the MCP
 * server's own origin or the configured issuer's, and never over plain
 * `http` except to loopback. Anything else is refused with an
 * {@link McpServerError} naming both origins, before a byte is sent.
 */
export function oauthFetchGuard(server: string, mcpUrl: string, issuer: string | undefined): GuardedFetch {
  const own = new URL(mcpUrl).origin;
  const issuerOrigin = issuer === undefined ? undefined : new URL(issuer).origin;
  return (url, init) => {
    const target = new URL(url instanceof URL ? url.href : url);
    if (target.origin !== own && target.origin !== issuerOrigin) {
      const allowed =
        issuerOrigin === undefined
          ? `its own origin ${own}`
          : `its own origin ${own} or the configured issuer ${issuerOrigin}`;
      return Promise.reject(
        new McpServerError(
          server,
          `it points OAuth at ${target.origin}, but the client secret goes only to ${allowed}: refused. If you trust ${target.origin}, set it as oauth.issuer.`,
        ),
      );
    }
    if (!isSecureOrLoopback(target)) {
      return Promise.reject(
        new McpServerError(
          server,
          `OAuth over plain http to ${target.origin} is refused (https is required except on loopback).`,
        ),
      );
    }
    return fetch(target, init);
  };
}
