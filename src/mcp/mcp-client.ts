import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  CallToolResult,
  GetPromptResult,
  Prompt as McpPromptInfo,
  Resource as McpResourceInfo,
  Tool as McpToolInfo,
  ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { McpServerError } from "../errors/mcp-server-error.js";
import { Logger } from "../tool/logger.js";
import { AuthorizationCodeProvider } from "./authorization-code-provider.js";
import { forgetChild, rememberChild } from "./child-processes.js";
import { loadedMcpClientSdk, loadMcpClientSdk, type McpClientSdk, mcpClientSdk } from "./load-mcp-sdk.js";
import { clientCapabilities, installClientHandlers, progressToProcess } from "./mcp-client-handlers.js";
import { type ElicitationScope, elicitationScope, throwIfAsked } from "./mcp-elicitation.js";
import { LivenessPingRefused, livenessFetch, mayMeanDead } from "./mcp-liveness.js";
import type { ResolvedMcpServerConfig } from "./mcp-server-config.js";
import { oauthFetchGuard } from "./oauth-fetch-guard.js";
import { skippedTool, usableMcpTools } from "./usable-mcp-tools.js";

export type {
  CallToolResult,
  GetPromptResult,
  McpPromptInfo,
  McpResourceInfo,
  McpToolInfo,
  ReadResourceResult,
};

/** Options of one MCP request. */
export interface McpRequestOptions {
  /** Cancels the request (the server is sent a cancellation). */
  readonly signal?: AbortSignal;
  /** Overrides the server's timeout for this request. @default the server's `timeoutMs` */
  readonly timeoutMs?: number;
}

/** Options of {@link McpClient.callTool}. */
export interface McpCallOptions extends McpRequestOptions {
  /** Sent as the request's `_meta`; omitted when undefined. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

const CLIENT_INFO = { name: "embabel-ts", version: "0.1.0" };
const STDERR_TAIL_CHARS = 2_000;
const LIVENESS_TIMEOUT_MS = 1_000;

/**
 * One configured MCP server, connected on first use. A server that dies is
 * reconnected (restarted, for stdio) on the next use; a connection that failed
 * is tried again on the next use. `close()` ends the child process.
 */
export class McpClient {
  /** The server's name, as configured. */
  readonly name: string;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private connecting: Promise<Client> | undefined;
  private pendingTransport: Transport | undefined;
  private stderrTail = "";
  private closed = false;
  private listVersion = 0;
  private everConnected = false;
  /** Whether this URL server speaks the legacy HTTP+SSE transport (configured, or found by falling back). */
  private sse: boolean;
  private oauthProvider: OAuthClientProvider | undefined;
  /** The transport whose request was answered by an authorization redirect, until {@link finishAuth}: no liveness ping meanwhile. */
  private authorizing: Transport | undefined;
  private pinging = false;
  /** The calls into this server running in agent processes now (elicitations and log lines go to their processes). */
  private readonly scopes = new Set<ElicitationScope>();
  /** The options of a request with neither a signal nor its own timeout: made once, the SDK only reads them. */
  private readonly defaultRequestOptions: { readonly timeout: number };

  constructor(readonly config: ResolvedMcpServerConfig) {
    this.name = config.name;
    this.defaultRequestOptions = Object.freeze({ timeout: config.timeoutMs });
    this.sse = config.transport === "http" && config.type === "sse";
  }

  /** Whether a connection is open now (nothing connects until a tool is needed). */
  get connected(): boolean {
    return this.client !== undefined;
  }

  /**
   * Goes up each time the server's tool list may have changed: when it sends
   * `notifications/tools/list_changed`, and when it is reconnected (a restarted
   * server may offer other tools). Whoever keeps a listing re-lists when this
   * differs from the value it listed at; nothing is listed eagerly.
   */
  get toolListVersion(): number {
    return this.listVersion;
  }

  /** The pid of the stdio child, while one runs. */
  get pid(): number | undefined {
    const sdk = loadedMcpClientSdk();
    return sdk && this.transport instanceof sdk.ProcessGroupStdioTransport ? this.transport.pid : undefined;
  }

  /**
   * The MCP SDK's `Client`, connected (started, for stdio) if it was not yet:
   * for what this library does not wrap (resources, prompts). It is replaced
   * when the server is reconnected.
   */
  sdkClient(options: McpRequestOptions = {}): Promise<Client> {
    return this.connection(options.signal, this.config.connectTimeoutMs);
  }

  /** Every tool the server offers (all pages), except those that require task-based execution. */
  async listTools(options: McpRequestOptions = {}): Promise<McpToolInfo[]> {
    return (await this.listToolsVersioned(options)).tools;
  }

  /**
   * {@link listTools}, with the {@link toolListVersion} the listing reflects
   * (read once connected, before the first page is asked for).
   * @internal
   */
  listToolsVersioned(options: McpRequestOptions = {}): Promise<{ tools: McpToolInfo[]; version: number }> {
    return this.request(
      "list its tools",
      async (client, requestOptions) => {
        const version = this.listVersion;
        const tools: McpToolInfo[] = [];
        let cursor: string | undefined;
        do {
          // Listed leniently and checked tool by tool: one bad tool must not make the others unusable.
          const page = await client.request(
            { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
            lenientToolListSchema(),
            requestOptions,
          );
          tools.push(...usableMcpTools(this.name, page.tools));
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        const usable = withCompilableOutputSchemas(client, this.name, tools);
        return { tools: usable.filter((tool) => tool.execution?.taskSupport !== "required"), version };
      },
      options,
    );
  }

  /** Whether the server offers resources (connecting first if need be). */
  async hasResources(options: McpRequestOptions = {}): Promise<boolean> {
    const client = await this.connection(options.signal, this.config.connectTimeoutMs);
    return client.getServerCapabilities()?.resources !== undefined;
  }

  /** Every resource the server lists (all pages). */
  listResources(options: McpRequestOptions = {}): Promise<McpResourceInfo[]> {
    return this.request(
      "list its resources",
      async (client, requestOptions) => {
        const resources: McpResourceInfo[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listResources(cursor === undefined ? {} : { cursor }, requestOptions);
          resources.push(...page.resources);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        return resources;
      },
      options,
    );
  }

  /** The contents of the resource at `uri` (text, or base64 `blob`s). */
  readResource(uri: string, options: McpRequestOptions = {}): Promise<ReadResourceResult> {
    return this.request(
      `read resource '${uri}'`,
      (client, requestOptions) => client.readResource({ uri }, requestOptions),
      options,
    );
  }

  /** Every prompt the server lists (all pages). */
  listPrompts(options: McpRequestOptions = {}): Promise<McpPromptInfo[]> {
    return this.request(
      "list its prompts",
      async (client, requestOptions) => {
        const prompts: McpPromptInfo[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listPrompts(cursor === undefined ? {} : { cursor }, requestOptions);
          prompts.push(...page.prompts);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        return prompts;
      },
      options,
    );
  }

  /** The server's prompt `name` filled in with `args`: its messages. */
  getPrompt(
    name: string,
    args: Readonly<Record<string, string>> = {},
    options: McpRequestOptions = {},
  ): Promise<GetPromptResult> {
    return this.request(
      `get prompt '${name}'`,
      (client, requestOptions) => client.getPrompt({ name, arguments: { ...args } }, requestOptions),
      options,
    );
  }

  /** Calls the server's tool `name` with `args`; rejects with an {@link McpServerError} when the server can't answer. */
  callTool(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: McpCallOptions = {},
  ): Promise<CallToolResult> {
    return this.callToolThen(name, args, options, returnResult, rethrow);
  }

  /**
   * {@link callTool} with its answer mapped in the same promise step: the
   * result by `onResult`, a failure the server causes by `onServerError`
   * (cancellations and other errors still reject). What {@link McpTool} uses.
   * @internal
   */
  callToolThen<T>(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: McpCallOptions,
    onResult: (result: CallToolResult) => T,
    onServerError: (error: McpServerError) => T,
  ): Promise<T> {
    const params = (
      options.meta === undefined ? { name, arguments: args } : { name, arguments: args, _meta: options.meta }
    ) as Parameters<Client["callTool"]>[0];
    const { signal, timeoutMs } = options;
    const requestOptions =
      signal === undefined && timeoutMs === undefined
        ? this.defaultRequestOptions
        : signal === undefined
          ? { timeout: timeoutMs ?? this.config.timeoutMs }
          : { timeout: timeoutMs ?? this.config.timeoutMs, signal };
    const scope = elicitationScope();
    if (scope !== undefined)
      return this.callInProcess(scope, params, requestOptions, onResult, onServerError);
    const call = (client: Client): Promise<T> =>
      (client.callTool(params, undefined, requestOptions) as Promise<CallToolResult>).then(
        onResult,
        (error: unknown) =>
          this.failed(error, `run tool '${name}'`, requestOptions.timeout, client, signal).catch(
            (failure: unknown) => serverErrorTo(failure, onServerError),
          ),
      );
    const connected = this.client;
    // The common case, connected: the SDK's promise and one step of ours, nothing more.
    if (connected) return call(connected);
    return this.connection(signal, this.config.connectTimeoutMs).then(call, (failure: unknown) =>
      serverErrorTo(failure, onServerError),
    );
  }

  /**
   * A call made in an agent process: its progress goes to the process's output
   * channel, and an elicitation without a handler becomes a form request of
   * the process (the call then ends waiting for it, see {@link answerElicitation}).
   */
  private async callInProcess<T>(
    scope: ElicitationScope,
    params: Parameters<Client["callTool"]>[0],
    requestOptions: { readonly timeout: number; readonly signal?: AbortSignal },
    onResult: (result: CallToolResult) => T,
    onServerError: (error: McpServerError) => T,
  ): Promise<T> {
    this.scopes.add(scope);
    try {
      let client: Client;
      try {
        client = await this.connection(requestOptions.signal, this.config.connectTimeoutMs);
      } catch (failure) {
        return serverErrorTo(failure, onServerError);
      }
      const options = { ...requestOptions, onprogress: progressToProcess(scope, this.name) };
      let result: CallToolResult;
      try {
        result = (await client.callTool(params, undefined, options)) as CallToolResult;
      } catch (error) {
        throwIfAsked(scope);
        return await this.failed(
          error,
          `run tool '${params.name}'`,
          requestOptions.timeout,
          client,
          requestOptions.signal,
        ).catch((failure: unknown) => serverErrorTo(failure, onServerError));
      }
      throwIfAsked(scope);
      return onResult(result);
    } finally {
      this.scopes.delete(scope);
    }
  }

  /** Whether an authorization-code flow was started (the provider was asked to redirect) and awaits {@link finishAuth}. */
  get awaitingAuthorization(): boolean {
    return this.authorizing !== undefined;
  }

  /**
   * Finishes an authorization-code flow: exchanges the `code` your redirect
   * URL received for tokens (saved in the server's `authProvider`). The next
   * use of the server connects (or retries) with them. A server without an
   * `authProvider` or `oauth` authorization-code config is a {@link ConfigurationError}.
   */
  async finishAuth(authorizationCode: string): Promise<void> {
    const sdk = await loadMcpClientSdk();
    if (!this.authProvider(sdk)) {
      throw new ConfigurationError(
        `MCP server '${this.name}' has no OAuth authorization-code flow to finish: configure oauth.redirectUrl or an authProvider.`,
      );
    }
    const transport = this.authorizing ?? this.transport ?? this.createTransport(sdk);
    await (
      transport as InstanceType<
        McpClientSdk["StreamableHTTPClientTransport"] | McpClientSdk["SSEClientTransport"]
      >
    ).finishAuth(authorizationCode);
    this.authorizing = undefined;
  }

  /** Closes the connection and ends the child process; the client can't be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const connecting = this.connecting;
    this.connecting = undefined;
    // A start or handshake in progress is ended now, not left to its timeout.
    await this.pendingTransport?.close().catch(() => undefined);
    await connecting?.catch(() => undefined);
    await this.disconnect();
  }

  /** A short description, for logs. */
  toString(): string {
    return `McpClient(${this.name}, ${this.config.transport}, connected=${this.connected})`;
  }

  /** Runs `run` on the connection (made first if need be); failures become {@link McpServerError}s. */
  private request<T>(
    what: string,
    run: (client: Client, options: { timeout: number; signal?: AbortSignal }) => Promise<T>,
    options: McpRequestOptions,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    const requestOptions = options.signal
      ? { timeout: timeoutMs, signal: options.signal }
      : { timeout: timeoutMs };
    const connected = this.client;
    // The common case, connected: no extra async step between the caller and the SDK.
    if (connected) {
      return run(connected, requestOptions).catch((error: unknown) =>
        this.failed(error, what, timeoutMs, connected, options.signal),
      );
    }
    return this.connection(options.signal, this.config.connectTimeoutMs).then((client) =>
      run(client, requestOptions).catch((error: unknown) =>
        this.failed(error, what, timeoutMs, client, options.signal),
      ),
    );
  }

  private async failed(
    error: unknown,
    what: string,
    timeoutMs: number,
    client: Client,
    signal: AbortSignal | undefined,
  ): Promise<never> {
    signal?.throwIfAborted();
    const { ErrorCode, McpError } = mcpClientSdk();
    if (isUnauthorized(error)) this.authorizing = this.transport;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      throw new McpServerError(
        this.name,
        `MCP server '${this.name}' did not ${what} within ${timeoutMs} ms; the request was cancelled.`,
        { cause: error },
      );
    }
    // A transport failure (dead child, refused or lost HTTP connection): start afresh next time.
    if (!(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed) {
      if (this.client === client) await this.disconnect();
    }
    this.logStderr(`failed to ${what}`);
    throw new McpServerError(
      this.name,
      `MCP server '${this.name}' failed to ${what}: ${oneLine(messageOf(error))}`,
      { cause: error },
    );
  }

  private connection(signal: AbortSignal | undefined, timeoutMs: number): Promise<Client> {
    if (this.closed) {
      return Promise.reject(new McpServerError(this.name, `MCP server '${this.name}' was closed.`));
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

  private async connect(timeoutMs: number): Promise<Client> {
    const sdk = await loadMcpClientSdk();
    this.stderrTail = "";
    const transport = this.createTransport(sdk);
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
      if (isUnauthorized(error)) this.authorizing = transport;
      if (this.fallsBackToSse(error)) {
        this.sse = true;
        this.pendingTransport = undefined;
        try {
          return await this.connect(timeoutMs);
        } catch (sseError) {
          this.sse = false; // next time, Streamable HTTP first again
          const cause = (sseError as { cause?: unknown }).cause ?? sseError;
          throw new McpServerError(
            this.name,
            `MCP server '${this.name}' could not be reached: ${messageOf(error)}; over HTTP+SSE: ${messageOf(cause)}`,
            { cause: error },
          );
        }
      }
      const failure = `could not be ${this.config.transport === "stdio" ? "started" : "reached"}`;
      this.logStderr(failure);
      throw new McpServerError(
        this.name,
        `MCP server '${this.name}' ${failure}: ${oneLine(messageOf(error))}`,
        { cause: error },
      );
    } finally {
      this.pendingTransport = undefined;
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new McpServerError(this.name, `MCP server '${this.name}' was closed.`);
    }
    this.client = client;
    this.transport = transport;
    this.authorizing = undefined;
    if (this.everConnected) this.listVersion++;
    this.everConnected = true;
    return client;
  }

  /**
   * A bare `{ url }` whose Streamable HTTP handshake got a 4xx other than
   * 401/403 is an older HTTP+SSE server (the MCP spec's backwards-compatibility
   * rule): connect again over SSE, once.
   */
  private fallsBackToSse(error: unknown): boolean {
    if (this.config.transport !== "http" || this.config.type !== undefined || this.sse) return false;
    if (!(error instanceof mcpClientSdk().StreamableHTTPError) || typeof error.code !== "number")
      return false;
    return error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
  }

  private createTransport(sdk: McpClientSdk): Transport {
    const config = this.config;
    if (config.transport === "http") {
      const requestInit = { headers: { ...(config.headers ?? {}) } };
      const authProvider = this.authProvider(sdk);
      // Configured client credentials: the secret (and every request) stays on the server's or the issuer's origin.
      const oauth = config.oauth;
      const guarded =
        oauth && !("redirectUrl" in oauth) && !config.authProvider
          ? oauthFetchGuard(this.name, config.url, oauth.issuer)
          : undefined;
      // With OAuth, a liveness ping's 401/403 never reaches the transport, which would start an authorization.
      const options = authProvider
        ? { requestInit, authProvider, fetch: livenessFetch(guarded) }
        : { requestInit };
      return this.sse
        ? new sdk.SSEClientTransport(new URL(config.url), options)
        : new sdk.StreamableHTTPClientTransport(new URL(config.url), options);
    }
    // In a process group of its own, so that close() and exit end an `npx` wrapper's real server too.
    const transport = new sdk.ProcessGroupStdioTransport({
      command: config.command,
      args: [...(config.args ?? [])],
      env: { ...sdk.getDefaultEnvironment(), ...(config.env ?? {}) },
      ...(config.cwd ? { cwd: config.cwd } : {}),
    });
    transport.stderr.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });
    return transport;
  }

  /** The OAuth provider of an HTTP server, made once so its tokens outlive a reconnect; `undefined` without OAuth. */
  private authProvider(sdk: McpClientSdk): OAuthClientProvider | undefined {
    const config = this.config;
    if (config.transport !== "http") return undefined;
    if (config.authProvider) return config.authProvider;
    const oauth = config.oauth;
    if (!oauth) return undefined;
    if (this.oauthProvider) return this.oauthProvider;
    if ("redirectUrl" in oauth) {
      this.oauthProvider = new AuthorizationCodeProvider({ server: this.name, ...oauth });
      return this.oauthProvider;
    }
    const provider = new sdk.ClientCredentialsProvider({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      expectedIssuer: oauth.issuer ?? new URL(config.url).origin,
      ...(oauth.scope ? { scope: oauth.scope } : {}),
    });
    // Without an issuer, the credentials bind to the first authorization server on the
    // server's own origin that accepts them (any path there); the fetch guard keeps them on it.
    if (!oauth.issuer)
      provider.saveClientInformation({ client_id: oauth.clientId, client_secret: oauth.clientSecret });
    this.oauthProvider = provider;
    return provider;
  }

  /**
   * Over HTTP a dead server fails nothing until the timeout: after a transport
   * error, a ping decides. One at a time, never while an authorization is
   * pending, and never starting one (see {@link livenessFetch}); an HTTP
   * answer other than 404 (session gone) proves the server alive.
   */
  private checkAlive(client: Client): void {
    if (this.pinging || this.authorizing !== undefined) return;
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
    Logger.current().warn(`MCP server '${this.name}' ${failure}; its stderr ends with:\n${stderr}`, {
      server: this.name,
    });
  }
}

/** A `tools/list` result whose tools are checked one by one afterwards ({@link usableMcpTools}). */
function buildLenientToolList() {
  return z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
}

let lenientToolList: ReturnType<typeof buildLenientToolList> | undefined;

/** {@link buildLenientToolList}, built on first use (at module level it would be code every bundle keeps). */
function lenientToolListSchema(): ReturnType<typeof buildLenientToolList> {
  lenientToolList ??= buildLenientToolList();
  return lenientToolList;
}

/** The SDK client's own cache of output-schema validators, which its `listTools` fills. */
type ToolMetadataCache = { cacheToolMetadata?: (tools: readonly McpToolInfo[]) => void };

/**
 * `tools` without those whose output schema can't be compiled (each skipped
 * with a warning), and the SDK client's validators of the others cached, as
 * its own `listTools` does, so structured results are still checked.
 */
function withCompilableOutputSchemas(client: Client, server: string, tools: McpToolInfo[]): McpToolInfo[] {
  const cache = (client as unknown as ToolMetadataCache).cacheToolMetadata?.bind(client);
  if (cache === undefined) return tools;
  const usable = tools.filter((tool) => {
    if (tool.outputSchema === undefined) return true;
    try {
      cache([tool]);
      return true;
    } catch (error) {
      skippedTool(server, `tool '${tool.name}'`, `its output schema can't be compiled (${messageOf(error)})`);
      return false;
    }
  });
  cache(usable);
  return usable;
}

/** The SDK's `UnauthorizedError`: the provider was asked to redirect to the authorization server (or refused). */
function isUnauthorized(error: unknown): boolean {
  return error instanceof Error && error.constructor.name === "UnauthorizedError";
}

function returnResult(result: CallToolResult): CallToolResult {
  return result;
}

function rethrow(error: McpServerError): never {
  throw error;
}

/** `failure` handed to `onServerError` when it is an {@link McpServerError}; anything else rejects as it is. */
function serverErrorTo<T>(failure: unknown, onServerError: (error: McpServerError) => T): T {
  if (McpServerError.isInstance(failure)) return onServerError(failure);
  throw failure;
}

/** The first line of `text`, at most 300 characters: what an in-band failure message carries. */
function oneLine(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function messageOf(error: unknown): string {
  // The SDK's HTTP errors carry the status only as `code`, and the body (often empty) as the message.
  const sdk = loadedMcpClientSdk();
  if (sdk && error instanceof sdk.StreamableHTTPError && typeof error.code === "number") {
    const reason = sdk.STATUS_CODES[error.code];
    const status = `HTTP ${error.code}${reason ? ` ${reason}` : ""}`;
    return error.message.includes(status)
      ? error.message
      : `${error.message.replace(/:\s*$/, "")} (${status})`;
  }
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error && !error.message.includes(cause.message)
      ? `${error.message} (${cause.message})`
      : error.message;
  }
  return String(error);
}
