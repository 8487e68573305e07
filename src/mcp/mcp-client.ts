// Over 400 lines: one class, the client of one server; every request goes through its one connection, timeouts and elicitation scopes (the connection, handlers and tool-list checks are sibling files).
import type {
  CallToolResult,
  Client,
  GetPromptResult,
  Prompt as McpPromptInfo,
  Resource as McpResourceInfo,
  Tool as McpToolInfo,
  ReadResourceResult,
} from "@modelcontextprotocol/client";
import { McpServerError } from "../errors/mcp-server-error.js";
import type { McpAuthorizationResponse } from "./authorization-response.js";
import { mcpLogLevelMeta, progressToProcess, reportSuppressedNotifications } from "./mcp-client-handlers.js";
import { McpConnection } from "./mcp-connection.js";
import { type ElicitationScope, elicitationScope, throwIfAsked } from "./mcp-elicitation.js";
import type { ResolvedMcpServerConfig } from "./mcp-server-config.js";
import {
  lenientToolListSchema,
  withCompilableOutputSchemas,
  withValidParamHeaders,
} from "./mcp-tool-list.js";
import { endMcpSpan, startMcpClientSpan, withTraceparent } from "./mcp-trace-context.js";
import { usableMcpTools } from "./usable-mcp-tools.js";

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

/**
 * One configured MCP server, connected on first use. A server that dies is
 * reconnected (restarted, for stdio) on the next use; a connection that failed
 * is tried again on the next use. `close()` ends the child process.
 */
export class McpClient {
  /** The server's name, as configured. */
  readonly name: string;
  /** The calls into this server running in agent processes now (elicitations and log lines go to their processes). */
  private readonly scopes = new Set<ElicitationScope>();
  private readonly connection: McpConnection;
  /** The options of a request with neither a signal nor its own timeout: made once, the SDK only reads them. */
  private readonly defaultRequestOptions: { readonly timeout: number };
  /**
   * The tools of the last listing, by name: each call hands the SDK its tool's
   * description (for the output schema's check and, at 2026-07-28, the
   * `Mcp-Param-*` headers of its `x-mcp-header` parameters).
   */
  private listedTools = new Map<string, McpToolInfo>();

  constructor(readonly config: ResolvedMcpServerConfig) {
    this.name = config.name;
    this.defaultRequestOptions = Object.freeze({ timeout: config.timeoutMs });
    this.connection = new McpConnection(config, this.scopes);
  }

  /** Whether a connection is open now (nothing connects until a tool is needed). */
  get connected(): boolean {
    return this.connection.client !== undefined;
  }

  /**
   * Goes up each time the server's tool list may have changed: when it sends
   * `notifications/tools/list_changed`, and when it is reconnected (a restarted
   * server may offer other tools). Whoever keeps a listing re-lists when this
   * differs from the value it listed at; nothing is listed eagerly.
   */
  get toolListVersion(): number {
    return this.connection.listVersion;
  }

  /** The pid of the stdio child, while one runs. */
  get pid(): number | undefined {
    return this.connection.pid;
  }

  /**
   * The MCP SDK's `Client` (`@modelcontextprotocol/client` 2.x), connected
   * (started, for stdio) if it was not yet: for what this library does not
   * wrap. It is replaced when the server is reconnected. Its
   * `getProtocolEra()` says which revision the server speaks ("modern":
   * 2026-07-28, "legacy": 2025-11-25 and older).
   */
  sdkClient(options: McpRequestOptions = {}): Promise<Client> {
    return this.connection.get(options.signal, this.config.connectTimeoutMs);
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
        const version = this.connection.listVersion;
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
        const usable = withCompilableOutputSchemas(
          this.name,
          withValidParamHeaders(client, this.name, tools),
        ).filter((tool) => tool.execution?.taskSupport !== "required");
        if (version === this.connection.listVersion)
          this.listedTools = new Map(usable.map((tool) => [tool.name, tool]));
        return { tools: usable, version };
      },
      options,
    );
  }

  /** Whether the server offers resources (connecting first if need be). */
  async hasResources(options: McpRequestOptions = {}): Promise<boolean> {
    const client = await this.connection.get(options.signal, this.config.connectTimeoutMs);
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
    const span = startMcpClientSpan(name, this.name);
    if (span.isRecording()) {
      // Traced: the span covers the call, and its traceparent goes in _meta for the server to continue.
      const meta = withTraceparent(options.meta, span);
      return this.sendToolCall(
        name,
        args,
        { ...options, ...(meta ? { meta } : {}) },
        (result) => {
          endMcpSpan(span, result.isError === true ? { isError: true } : {});
          return onResult(result);
        },
        (error) => {
          endMcpSpan(span, { error });
          return onServerError(error);
        },
      ).catch((error: unknown) => {
        if (span.isRecording()) endMcpSpan(span, { error });
        throw error;
      });
    }
    return this.sendToolCall(name, args, options, onResult, onServerError);
  }

  /** {@link callToolThen} without its span. */
  private sendToolCall<T>(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: McpCallOptions,
    onResult: (result: CallToolResult) => T,
    onServerError: (error: McpServerError) => T,
  ): Promise<T> {
    const { signal, timeoutMs } = options;
    const toolDefinition = this.listedTools.get(name);
    const baseOptions =
      signal === undefined && timeoutMs === undefined
        ? this.defaultRequestOptions
        : signal === undefined
          ? { timeout: timeoutMs ?? this.config.timeoutMs }
          : { timeout: timeoutMs ?? this.config.timeoutMs, signal };
    const requestOptions = toolDefinition ? { ...baseOptions, toolDefinition } : baseOptions;
    const paramsFor = (client: Client): CallToolParams => {
      const meta = withLogLevel(options.meta, mcpLogLevelMeta(client, this.config));
      return meta === undefined ? { name, arguments: args } : { name, arguments: args, _meta: meta };
    };
    const scope = elicitationScope();
    if (scope !== undefined)
      return this.callInProcess(scope, paramsFor, requestOptions, onResult, onServerError);
    const call = (client: Client): Promise<T> =>
      (client.callTool(paramsFor(client), requestOptions) as Promise<CallToolResult>).then(
        onResult,
        (error: unknown) =>
          this.connection
            .failed(error, `run tool '${name}'`, requestOptions.timeout, client, signal)
            .catch((failure: unknown) => serverErrorTo(failure, onServerError)),
      );
    const connected = this.connection.client;
    // The common case, connected: the SDK's promise and one step of ours, nothing more.
    if (connected) return call(connected);
    return this.connection
      .get(signal, this.config.connectTimeoutMs)
      .then(call, (failure: unknown) => serverErrorTo(failure, onServerError));
  }

  /**
   * A call made in an agent process: its progress goes to the process's output
   * channel, and an elicitation without a handler becomes a form request of
   * the process (the call then ends waiting for it, see {@link answerElicitation}).
   */
  private async callInProcess<T>(
    scope: ElicitationScope,
    paramsFor: (client: Client) => CallToolParams,
    requestOptions: {
      readonly timeout: number;
      readonly signal?: AbortSignal;
      readonly toolDefinition?: McpToolInfo;
    },
    onResult: (result: CallToolResult) => T,
    onServerError: (error: McpServerError) => T,
  ): Promise<T> {
    this.scopes.add(scope);
    try {
      let client: Client;
      try {
        client = await this.connection.get(requestOptions.signal, this.config.connectTimeoutMs);
      } catch (failure) {
        return serverErrorTo(failure, onServerError);
      }
      const options = { ...requestOptions, onprogress: progressToProcess(scope, this.config) };
      const params = paramsFor(client);
      let result: CallToolResult;
      try {
        result = (await client.callTool(params, options)) as CallToolResult;
      } catch (error) {
        throwIfAsked(scope);
        return await this.connection
          .failed(error, `run tool '${params.name}'`, requestOptions.timeout, client, requestOptions.signal)
          .catch((failure: unknown) => serverErrorTo(failure, onServerError));
      }
      throwIfAsked(scope);
      return onResult(result);
    } finally {
      this.scopes.delete(scope);
      reportSuppressedNotifications(scope, this.config);
    }
  }

  /** Whether an authorization-code flow was started (the provider was asked to redirect) and awaits {@link finishAuth}. */
  get awaitingAuthorization(): boolean {
    return this.connection.awaitingAuthorization;
  }

  /**
   * Finishes an authorization-code flow: exchanges the code your redirect
   * URL received for tokens (saved in the server's `authProvider`). The next
   * use of the server connects (or retries) with them. Pass the callback URL
   * (or its query) as received: then its `iss` is checked against the
   * authorization server the flow started with (RFC 9207, SEP-2468) and a
   * mismatch, a missing `iss` the server promised, or an `error` response is an
   * {@link McpServerError}; a bare code string skips that check.
   * A server without an `authProvider` or `oauth` authorization-code config is
   * a {@link ConfigurationError}.
   */
  finishAuth(response: McpAuthorizationResponse): Promise<void> {
    return this.connection.finishAuth(response);
  }

  /** Closes the connection and ends the child process; the client can't be used afterwards. */
  close(): Promise<void> {
    return this.connection.close();
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
    const connected = this.connection.client;
    // The common case, connected: no extra async step between the caller and the SDK.
    if (connected) {
      return run(connected, requestOptions).catch((error: unknown) =>
        this.connection.failed(error, what, timeoutMs, connected, options.signal),
      );
    }
    return this.connection
      .get(options.signal, this.config.connectTimeoutMs)
      .then((client) =>
        run(client, requestOptions).catch((error: unknown) =>
          this.connection.failed(error, what, timeoutMs, client, options.signal),
        ),
      );
  }
}

/** The parameters of a `tools/call`. */
type CallToolParams = Parameters<Client["callTool"]>[0];

/** `meta` with the 2026-07-28 log-level entry added (the caller's own entries win), or as it is without one. */
function withLogLevel(
  meta: Readonly<Record<string, unknown>> | undefined,
  logLevel: Readonly<Record<string, string>> | undefined,
): Record<string, unknown> | undefined {
  if (logLevel === undefined) return meta as Record<string, unknown> | undefined;
  return { ...logLevel, ...meta };
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
