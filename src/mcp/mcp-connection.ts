// The connection of one McpClient to its server: made on first use, made
// again after the server died, watched over HTTP (a ping decides whether a
// transport error means the server is gone), ended by close().

import type { Client, PriorDiscovery, Transport } from "@modelcontextprotocol/client";
import { McpServerError } from "../errors/mcp-server-error.js";
import { Logger } from "../tool/logger.js";
import type { McpAuthorizationResponse } from "./authorization-response.js";
import { forgetChild, rememberChild } from "./child-processes.js";
import { loadedMcpClientSdk, loadMcpClientSdk, type McpClientSdk, mcpClientSdk } from "./load-mcp-sdk.js";
import { McpClientAuth } from "./mcp-client-auth.js";
import { staysConnected } from "./mcp-client-errors.js";
import { clientCapabilities, installClientHandlers, setServerLogLevel } from "./mcp-client-handlers.js";
import { createMcpClientTransport, fallsBackToSse } from "./mcp-client-transport.js";
import type { ElicitationScope } from "./mcp-elicitation.js";
import { isUnauthorized, mcpErrorMessage, oneLine } from "./mcp-error-message.js";
import { LivenessPingRefused, mayMeanDead } from "./mcp-liveness.js";
import type { ResolvedMcpServerConfig } from "./mcp-server-config.js";
import { toolSchemaValidator } from "./tool-schema-validator.js";

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
  /**
   * The protocol era found when this server was last connected (`server/discover`
   * answered: 2026-07-28; else 2025-11-25 by `initialize`): a reconnect
   * starts from it instead of probing again. Forgotten when a connect fails.
   */
  private prior: PriorDiscovery | undefined;

  constructor(
    private readonly config: ResolvedMcpServerConfig,
    /** The calls into this server running in agent processes now (elicitations and log lines go to their processes). */
    private readonly scopes: Set<ElicitationScope>,
  ) {
    this.sse = config.transport === "http" && config.type === "sse";
    this.auth = new McpClientAuth(config);
    this.prior = this.pinnedPrior();
  }

  /** A config's `protocolVersion: "2025-11-25"`: `initialize` at once, never the probe. */
  private pinnedPrior(): PriorDiscovery | undefined {
    return this.config.protocolVersion === "2025-11-25" ? { kind: "legacy" } : undefined;
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
    const { SdkError, SdkErrorCode } = mcpClientSdk();
    if (isUnauthorized(error)) this.auth.authorizing = this.transport;
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      throw new McpServerError(
        name,
        `MCP server '${name}' did not ${what} within ${timeoutMs} ms; the request was cancelled.`,
        { cause: error },
      );
    }
    // A transport failure (dead child, refused or lost HTTP connection, an oversized stdio message): start afresh next time.
    const overflowed =
      this.transport instanceof mcpClientSdk().ProcessGroupStdioTransport && this.transport.overflowed;
    if (!staysConnected(mcpClientSdk(), error) || overflowed) {
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

  private async connect(timeoutMs: number, probedOnce = false): Promise<Client> {
    const sdk = await loadMcpClientSdk();
    const name = this.config.name;
    this.stderrTail = "";
    const transport = this.createTransport();
    const client = new sdk.Client(CLIENT_INFO, {
      capabilities: clientCapabilities(this.config),
      // 2026-07-28 when `server/discover` is answered, else 2025-11-25 by `initialize`. HTTP+SSE is older than both probes.
      versionNegotiation: { mode: this.sse ? "legacy" : "auto" },
      jsonSchemaValidator: toolSchemaValidator(sdk),
    });
    installClientHandlers(client, { config: this.config, scopes: this.scopes });
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
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      if (this.client === client) this.listVersion++;
    });
    this.pendingTransport = transport;
    // Known from the spawn on, so that a child still starting does not outlive this process either.
    if (transport instanceof sdk.ProcessGroupStdioTransport) rememberChild(this, () => transport.pid);
    try {
      const prior = this.sse ? undefined : this.prior;
      await client.connect(transport, prior ? { timeout: timeoutMs, prior } : { timeout: timeoutMs });
    } catch (error) {
      this.prior = this.pinnedPrior();
      forgetChild(this);
      await transport.close().catch(() => undefined);
      if (isUnauthorized(error)) this.auth.authorizing = transport;
      // A stdio server that exits on a request before `initialize` (older SDKs do): started again, without the probe.
      if (!probedOnce && !this.closed && closedDuringProbe(sdk, transport, error)) {
        this.prior = { kind: "legacy" };
        this.pendingTransport = undefined;
        return await this.connect(timeoutMs, true);
      }
      const overflow =
        transport instanceof sdk.ProcessGroupStdioTransport ? transport.overflowMessage : undefined;
      if (this.config.protocolVersion !== "2026-07-28" && fallsBackToSse(this.config, this.sse, error)) {
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
      const why = overflow ?? oneLine(mcpErrorMessage(error));
      throw new McpServerError(name, `MCP server '${name}' ${failure}: ${why}`, {
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
    const discover = client.getDiscoverResult();
    if (!discover && this.config.protocolVersion === "2026-07-28") {
      this.client = undefined;
      this.transport = undefined;
      forgetChild(this);
      await client.close().catch(() => undefined);
      throw new McpServerError(
        name,
        `MCP server '${name}' does not speak MCP 2026-07-28 (it did not answer server/discover), and its config asks for protocolVersion "2026-07-28".`,
      );
    }
    this.prior = discover ? { kind: "modern", discover } : { kind: "legacy" };
    setServerLogLevel(client, this.config);
    this.listenForToolListChanges(client);
    this.auth.authorizing = undefined;
    if (this.everConnected) this.listVersion++;
    this.everConnected = true;
    return client;
  }

  /**
   * At 2026-07-28 a server announces tool list changes only on a
   * `subscriptions/listen` stream: opened when it declares `tools.listChanged`,
   * its notifications reach the same `notifications/tools/list_changed` handler.
   * A refusal leaves the list followed on reconnects only.
   */
  private listenForToolListChanges(client: Client): void {
    if (client.getProtocolEra() !== "modern" || !client.getServerCapabilities()?.tools?.listChanged) return;
    client.listen({ toolsListChanged: true }).catch((error: unknown) => {
      Logger.current().debug(`MCP server '${this.config.name}' did not open subscriptions/listen.`, {
        error: error instanceof Error ? error.message : String(error),
      });
    });
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
    // At 2026-07-28 there is no ping: `server/discover` asks the same (see `livenessFetch`).
    const ping =
      client.getProtocolEra() === "modern"
        ? client.discover({ timeout: LIVENESS_TIMEOUT_MS })
        : client.ping({ timeout: LIVENESS_TIMEOUT_MS });
    ping
      .catch(async (error: unknown) => {
        if (error instanceof LivenessPingRefused) return;
        const { SdkHttpError } = mcpClientSdk();
        if (error instanceof SdkHttpError && error.status !== 404) return;
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

/** Whether a stdio child's connection closed while it was asked `server/discover` (not for a message over the cap). */
function closedDuringProbe(sdk: McpClientSdk, transport: Transport, error: unknown): boolean {
  return (
    transport instanceof sdk.ProcessGroupStdioTransport &&
    !transport.overflowed &&
    error instanceof sdk.SdkError &&
    error.code === sdk.SdkErrorCode.EraNegotiationFailed &&
    error.message.includes("closed during the server/discover probe")
  );
}
