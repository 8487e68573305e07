// The connection of one McpClient to its server: made on first use, made
// again after the server died, watched over HTTP (a ping decides whether a
// transport error means the server is gone), ended by close().

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpServerError } from "../errors/mcp-server-error.js";
import { Logger } from "../tool/logger.js";
import type { McpAuthorizationResponse } from "./authorization-response.js";
import { forgetChild, rememberChild } from "./child-processes.js";
import { loadedMcpClientSdk, loadMcpClientSdk, mcpClientSdk } from "./load-mcp-sdk.js";
import { McpClientAuth } from "./mcp-client-auth.js";
import { clientCapabilities, installClientHandlers, setServerLogLevel } from "./mcp-client-handlers.js";
import { createMcpClientTransport, fallsBackToSse } from "./mcp-client-transport.js";
import type { ElicitationScope } from "./mcp-elicitation.js";
import { isUnauthorized, mcpErrorMessage, oneLine } from "./mcp-error-message.js";
import { LivenessPingRefused, mayMeanDead } from "./mcp-liveness.js";
import type { ResolvedMcpServerConfig } from "./mcp-server-config.js";

const CLIENT_INFO = { name: "embabel-ts", version: "0.1.0" };
const STDERR_TAIL_CHARS = 2_000;
const LIVENESS_TIMEOUT_MS = 1_000;

/** One server's connection, as {@link McpClient} uses it. */
export class McpConnection {
  /** The SDK client while connected. */
  client: Client | undefined;
  private transport: Transport | undefined;
  private connecting: Promise<Client> | undefined;
  private pendingTransport: Transport | undefined;
  private stderrTail = "";
  private closed = false;
  /** See `McpClient.toolListVersion`. */
  listVersion = 0;
  private everConnected = false;
  /** Whether this URL server speaks the legacy HTTP+SSE transport (configured, or found by falling back). */
  private sse: boolean;
  private readonly auth: McpClientAuth;
  private pinging = false;

  constructor(
    private readonly config: ResolvedMcpServerConfig,
    /** The calls into this server running in agent processes now (elicitations and log lines go to their processes). */
    private readonly scopes: Set<ElicitationScope>,
  ) {
    this.sse = config.transport === "http" && config.type === "sse";
    this.auth = new McpClientAuth(config);
  }

  /** The pid of the stdio child, while one runs. */
  get pid(): number | undefined {
    const sdk = loadedMcpClientSdk();
    return sdk && this.transport instanceof sdk.ProcessGroupStdioTransport ? this.transport.pid : undefined;
  }

  /** Whether an authorization-code flow was started and awaits {@link finishAuth}. */
  get awaitingAuthorization(): boolean {
    return this.auth.authorizing !== undefined;
  }

  /** See `McpClient.finishAuth`. */
  async finishAuth(response: McpAuthorizationResponse): Promise<void> {
    const sdk = await loadMcpClientSdk();
    await this.auth.finish(sdk, response, () => this.transport ?? this.createTransport());
  }

  /** The connected client, connecting first if need be. */
  get(signal: AbortSignal | undefined, timeoutMs: number): Promise<Client> {
    if (this.closed) {
      return Promise.reject(
        new McpServerError(this.config.name, `MCP server '${this.config.name}' was closed.`),
      );
    }
    if (this.client) return Promise.resolve(this.client);
    // A caller that has given up already starts nothing (and is answered with a rejection, not a throw).
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.connecting ??= this.connect(timeoutMs).finally(() => {
      this.connecting = undefined;
    });
    if (!signal) return this.connecting;
    return Promise.race([
      this.connecting,
      new Promise<never>((_resolve, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
      ),
    ]);
  }

  /** A request's failure as an {@link McpServerError} (a timeout, a dead transport: then disconnected). */
  async failed(
    error: unknown,
    what: string,
    timeoutMs: number,
    client: Client,
    signal: AbortSignal | undefined,
  ): Promise<never> {
    signal?.throwIfAborted();
    const name = this.config.name;
    const { ErrorCode, McpError } = mcpClientSdk();
    if (isUnauthorized(error)) this.auth.authorizing = this.transport;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      throw new McpServerError(
        name,
        `MCP server '${name}' did not ${what} within ${timeoutMs} ms; the request was cancelled.`,
        { cause: error },
      );
    }
    // A transport failure (dead child, refused or lost HTTP connection): start afresh next time.
    if (!(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed) {
      if (this.client === client) await this.disconnect();
    }
    this.logStderr(`failed to ${what}`);
    throw new McpServerError(
      name,
      `MCP server '${name}' failed to ${what}: ${oneLine(mcpErrorMessage(error))}`,
      {
        cause: error,
      },
    );
  }

  /** Closes the connection and ends the child process; nothing connects afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const connecting = this.connecting;
    this.connecting = undefined;
    // A start or handshake in progress is ended now, not left to its timeout.
    await this.pendingTransport?.close().catch(() => undefined);
    await connecting?.catch(() => undefined);
    await this.disconnect();
  }

  private async connect(timeoutMs: number): Promise<Client> {
    const sdk = await loadMcpClientSdk();
    const name = this.config.name;
    this.stderrTail = "";
    const transport = this.createTransport();
    const client = new sdk.Client(CLIENT_INFO, { capabilities: clientCapabilities(this.config) });
    await installClientHandlers(client, { config: this.config, scopes: this.scopes });
    client.onclose = () => {
      // Only the current connection's child: a new one may be starting already.
      if (this.client === client) {
        this.client = undefined;
        this.transport = undefined;
        forgetChild(this);
      }
    };
    if (this.config.transport === "http")
      client.onerror = (error) => {
        if (mayMeanDead(error)) this.checkAlive(client);
      };
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      if (this.client === client) this.listVersion++;
    });
    this.pendingTransport = transport;
    // Known from the spawn on, so that a child still starting does not outlive this process either.
    if (transport instanceof sdk.ProcessGroupStdioTransport) rememberChild(this, () => transport.pid);
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (error) {
      forgetChild(this);
      await transport.close().catch(() => undefined);
      if (isUnauthorized(error)) this.auth.authorizing = transport;
      if (fallsBackToSse(this.config, this.sse, error)) {
        this.sse = true;
        this.pendingTransport = undefined;
        try {
          return await this.connect(timeoutMs);
        } catch (sseError) {
          this.sse = false; // next time, Streamable HTTP first again
          const cause = (sseError as { cause?: unknown }).cause ?? sseError;
          throw new McpServerError(
            name,
            `MCP server '${name}' could not be reached: ${mcpErrorMessage(error)}; over HTTP+SSE: ${mcpErrorMessage(cause)}`,
            { cause: error },
          );
        }
      }
      const failure = `could not be ${this.config.transport === "stdio" ? "started" : "reached"}`;
      this.logStderr(failure);
      throw new McpServerError(name, `MCP server '${name}' ${failure}: ${oneLine(mcpErrorMessage(error))}`, {
        cause: error,
      });
    } finally {
      this.pendingTransport = undefined;
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new McpServerError(name, `MCP server '${name}' was closed.`);
    }
    this.client = client;
    this.transport = transport;
    setServerLogLevel(client, this.config);
    this.auth.authorizing = undefined;
    if (this.everConnected) this.listVersion++;
    this.everConnected = true;
    return client;
  }

  private createTransport(): Transport {
    const sdk = mcpClientSdk();
    return createMcpClientTransport(sdk, this.config, {
      sse: this.sse,
      authProvider: this.auth.providerFor(sdk),
      onStderr: (chunk) => {
        this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
      },
    });
  }

  /**
   * Over HTTP a dead server fails nothing until the timeout: after a transport
   * error, a ping decides. One at a time, never while an authorization is
   * pending, and never starting one (see `livenessFetch`); an HTTP
   * answer other than 404 (session gone) proves the server alive.
   */
  private checkAlive(client: Client): void {
    if (this.pinging || this.auth.authorizing !== undefined) return;
    this.pinging = true;
    client
      .ping({ timeout: LIVENESS_TIMEOUT_MS })
      .catch(async (error: unknown) => {
        if (error instanceof LivenessPingRefused) return;
        const { StreamableHTTPError } = mcpClientSdk();
        if (error instanceof StreamableHTTPError && typeof error.code === "number" && error.code !== 404)
          return;
        if (this.client === client) await this.disconnect();
      })
      .finally(() => {
        this.pinging = false;
      });
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    forgetChild(this);
    const sdk = loadedMcpClientSdk(); // never loaded: nothing was connected
    if (sdk && transport instanceof sdk.StreamableHTTPClientTransport) {
      await transport.terminateSession().catch(() => undefined);
    }
    await client?.close().catch(() => undefined);
  }

  /**
   * The server's stderr goes to the log (Logger.current()), never into the
   * message the model reads: it is the server's own text, and may echo keys.
   */
  private logStderr(failure: string): void {
    const stderr = this.stderrTail.trim();
    if (stderr.length === 0) return;
    Logger.current().warn(`MCP server '${this.config.name}' ${failure}; its stderr ends with:\n${stderr}`, {
      server: this.config.name,
    });
  }
}
