import { AsyncLocalStorage } from "node:async_hooks";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
  Server,
} from "@modelcontextprotocol/server";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { ToolResult } from "../../tool/tool-result.js";

/** The MCP log levels, least severe first. */
const LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** Where a served call's notifications and requests go (the SDK's request handler `extra`). */
export interface McpServerCallTarget {
  readonly server: Server;
  readonly requestId: string | number;
  readonly progressToken: string | number | undefined;
  readonly signal: AbortSignal;
  readonly sendNotification: (notification: {
    method: string;
    params?: Record<string, unknown>;
  }) => Promise<void>;
  /** The least severe level the client wants (`logging/setLevel`, or the request's own on 2026-07-28); `undefined`: none. */
  readonly minimumLevel: () => LoggingLevel | undefined;
  /** Closes the call's SSE stream, the client to resume it (a resumable stateful HTTP session only). */
  readonly closeStream?: () => void;
  /** Whether the request came on MCP 2026-07-28 (its `_meta` envelope), where the server asks nothing of the client during a call. @default false */
  readonly modern?: boolean;
  /** The answers a retried request carries (`inputResponses`, MCP 2026-07-28). */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The verified `requestState` a retried request carries, decoded. */
  readonly requestState?: unknown;
  /** Whether the call runs as a task (MCP 2026-07-28 tasks extension): a waiting agent is asked about in the task. @default false */
  readonly inTask?: boolean;
}

/**
 * One request a served call asks the client to fulfil before it calls again
 * (MCP 2026-07-28 `inputRequests`): an elicitation form, a model completion
 * or the client's roots.
 */
export interface McpInputRequest {
  readonly method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  readonly params?: Readonly<Record<string, unknown>>;
}

/** What {@link McpServerCall.requireInput} asked for: the server answers the request with `input_required`. @internal */
export interface McpInputRequirement {
  readonly inputRequests: Readonly<Record<string, McpInputRequest>>;
  readonly state?: unknown;
}

const storage = new AsyncLocalStorage<McpServerCall>();

/**
 * The MCP request a served tool (or agent) is answering, for the tool to
 * talk back to the client while it runs: progress (sent only when the client
 * asked for it with a progress token), log messages (above the level the
 * client set), a form for the user (elicitation) and a model completion
 * (sampling). `McpServerCall.current()` is `undefined` outside a served call.
 */
export class McpServerCall {
  private progressSent = 0;
  private required: McpInputRequirement | undefined;

  private constructor(private readonly target: McpServerCallTarget) {}

  /**
   * Whether the request came on MCP 2026-07-28, which has no server→client
   * requests: {@link elicit} and {@link createMessage} are refused there; ask
   * with {@link requireInput} instead.
   */
  get modern(): boolean {
    return this.target.modern === true;
  }

  /** The client's capabilities (its `initialize`, or on 2026-07-28 the request's own). */
  get clientCapabilities(): Readonly<Record<string, unknown>> {
    return (this.target.server.getClientCapabilities() ?? {}) as Readonly<Record<string, unknown>>;
  }

  /**
   * The client's answers to what {@link requireInput} asked, by key, when this
   * is the call again (its `inputResponses`); `undefined` on a first call.
   * They come from the client: check them.
   */
  get inputResponses(): Readonly<Record<string, unknown>> | undefined {
    return this.target.inputResponses;
  }

  /**
   * The state {@link requireInput} was given on the previous round, back from
   * the client, checked: it was signed by this server (or one sharing its
   * secret) for this method, and has not expired. `undefined` on a first call.
   */
  get requestState(): unknown {
    return this.target.requestState;
  }

  /**
   * Ends this call asking the client for input first (MCP's multi-round-trip
   * `input_required`): the client fulfils `inputRequests` (keys are yours) and
   * calls again with the answers in {@link inputResponses} and `state` in
   * {@link requestState} (signed, so the client cannot alter it; readable, so
   * put no secrets in it). On a 2025-11-25 session the SDK asks the client
   * with real requests and calls the tool again in place. Return what this
   * returns from the tool.
   */
  requireInput(inputRequests: Readonly<Record<string, McpInputRequest>>, state?: unknown): ToolResult {
    if (Object.keys(inputRequests).length === 0 && state === undefined) {
      throw new ConfigurationError("requireInput: ask for at least one input, or give a state.");
    }
    this.required = { inputRequests, ...(state === undefined ? {} : { state }) };
    return ToolResult.text("Input required from the client.");
  }

  /** What {@link requireInput} asked for during this call, if anything. @internal */
  get inputRequirement(): McpInputRequirement | undefined {
    return this.required;
  }

  /** The call being served, if any (ambient, like `AgentProcess.current()`). */
  static current(): McpServerCall | undefined {
    return storage.getStore();
  }

  /** Runs `body` as the served call for `target`. @internal */
  static run<T>(target: McpServerCallTarget, body: () => Promise<T>): Promise<T> {
    return storage.run(new McpServerCall(target), body);
  }

  /** Whether the client asked for progress (sent a progress token). */
  get wantsProgress(): boolean {
    return this.target.progressToken !== undefined;
  }

  /**
   * Sends `notifications/progress` when the client sent a progress token
   * (else nothing): `progress` so far, of `total` when known. Without
   * `progress`, one more than the last sent (progress must increase).
   */
  async progress(options: { progress?: number; total?: number; message?: string } = {}): Promise<void> {
    const token = this.target.progressToken;
    if (token === undefined) return;
    const progress = options.progress ?? this.progressSent + 1;
    this.progressSent = progress;
    await this.target.sendNotification({
      method: "notifications/progress",
      params: {
        progressToken: token,
        progress,
        ...(options.total === undefined ? {} : { total: options.total }),
        ...(options.message === undefined ? {} : { message: options.message }),
      },
    });
  }

  /** Sends a log message (`notifications/message`) unless the client set a more severe level. */
  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    // On MCP 2026-07-28 a request without a log level wants no logs.
    const minimum = this.target.minimumLevel();
    if (minimum === undefined || LEVELS.indexOf(level) < LEVELS.indexOf(minimum)) return;
    await this.target.sendNotification({
      method: "notifications/message",
      params: { level, data, ...(logger === undefined ? {} : { logger }) },
    });
  }

  /**
   * Lets go of the client's connection for this call while the tool works on
   * (SSE polling, MCP 2025-11-25): the stream is closed, the client reconnects
   * after the `retry` it was given and receives what follows, the result
   * included. Only over a resumable stateful HTTP session
   * (`serveMcpOverHttp`); returns whether the stream was closed.
   */
  closeStream(): boolean {
    if (!this.target.closeStream) return false;
    this.target.closeStream();
    return true;
  }

  /** Whether the client declared elicitation (forms for its user). */
  get canElicit(): boolean {
    return this.target.server.getClientCapabilities()?.elicitation !== undefined;
  }

  /** Whether the client declared sampling (model completions). */
  get canSample(): boolean {
    return this.target.server.getClientCapabilities()?.sampling !== undefined;
  }

  /** Asks the client's user to fill a form (`elicitation/create`); fails when the client cannot. */
  elicit(params: Omit<ElicitRequestFormParams, "mode">): Promise<ElicitResult> {
    return this.target.server.elicitInput(
      { mode: "form", ...params },
      {
        relatedRequestId: this.target.requestId,
        signal: this.target.signal,
      },
    );
  }

  /** Asks the client's model for a completion (`sampling/createMessage`); fails when the client cannot. */
  createMessage(params: CreateMessageRequestParams): Promise<CreateMessageResult> {
    return this.target.server.createMessage(params, {
      relatedRequestId: this.target.requestId,
      signal: this.target.signal,
    }) as Promise<CreateMessageResult>;
  }
}
