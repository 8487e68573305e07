// Which transport reaches a configured MCP server: a child process in a
// process group of its own (stdio), Streamable HTTP, or legacy HTTP+SSE.

import type { OAuthClientProvider, Transport } from "@modelcontextprotocol/client";
import { type McpClientSdk, mcpClientSdk } from "./load-mcp-sdk.js";
import { livenessFetch } from "./mcp-liveness.js";
import type { ResolvedMcpServerConfig } from "./mcp-server-config.js";
import { oauthFetchGuard } from "./oauth-fetch-guard.js";
import { sizeCappedFetch } from "./size-capped-fetch.js";

/** What {@link createMcpClientTransport} needs besides the config. */
export interface McpClientTransportOptions {
  /** Whether a URL server is reached over legacy HTTP+SSE. */
  readonly sse: boolean;
  /** The server's OAuth provider, if any. */
  readonly authProvider: OAuthClientProvider | undefined;
  /** Receives a stdio child's stderr, chunk by chunk. */
  readonly onStderr: (chunk: string) => void;
}

/** A new, unstarted transport to the server of `config`. */
export function createMcpClientTransport(
  sdk: McpClientSdk,
  config: ResolvedMcpServerConfig,
  options: McpClientTransportOptions,
): Transport {
  if (config.transport === "http") {
    const requestInit = { headers: { ...(config.headers ?? {}) } };
    const authProvider = options.authProvider;
    // Configured client credentials: the secret (and every request) stays on the server's or the issuer's origin.
    const oauth = config.oauth;
    const guarded =
      oauth && !("redirectUrl" in oauth) && !config.authProvider
        ? oauthFetchGuard(config.name, config.url, oauth.issuer)
        : undefined;
    // With OAuth, a liveness ping's 401/403 never reaches the transport, which would start an authorization.
    // Every response is read with a size cap: one message of a hostile server cannot fill the heap.
    const transportOptions = authProvider
      ? { requestInit, authProvider, fetch: sizeCappedFetch(livenessFetch(guarded)) }
      : { requestInit, fetch: sizeCappedFetch(undefined) };
    return options.sse
      ? new sdk.SSEClientTransport(new URL(config.url), transportOptions)
      : new sdk.StreamableHTTPClientTransport(new URL(config.url), transportOptions);
  }
  // In a process group of its own, so that close() and exit end an `npx` wrapper's real server too.
  const transport = new sdk.ProcessGroupStdioTransport({
    command: config.command,
    args: [...(config.args ?? [])],
    env: { ...sdk.getDefaultEnvironment(), ...(config.env ?? {}) },
    ...(config.cwd ? { cwd: config.cwd } : {}),
  });
  transport.stderr.on("data", (chunk: Buffer) => options.onStderr(chunk.toString("utf8")));
  return transport;
}

/**
 * Whether a failed handshake means "connect again over HTTP+SSE": a bare
 * `{ url }` whose Streamable HTTP handshake got a 4xx other than 401/403 is an
 * older HTTP+SSE server (the MCP spec's backwards-compatibility rule), once.
 */
export function fallsBackToSse(config: ResolvedMcpServerConfig, sse: boolean, error: unknown): boolean {
  if (config.transport !== "http" || config.type !== undefined || sse) return false;
  if (!(error instanceof mcpClientSdk().SdkHttpError)) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403;
}
