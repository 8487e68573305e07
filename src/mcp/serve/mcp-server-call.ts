import { AsyncLocalStorage } from "node:async_hooks";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
} from "@modelcontextprotocol/sdk/types.js";

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
  /** The least severe level the client wants (`logging/setLevel`). @default "debug" (everything) */
  readonly minimumLevel: () => LoggingLevel;
  /** Closes the call's SSE stream, the client to resume it (a resumable stateful HTTP session only). */
  readonly closeStream?: () => void;
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

  private constructor(private readonly target: McpServerCallTarget) {}

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
    if (LEVELS.indexOf(level) < LEVELS.indexOf(this.target.minimumLevel())) return;
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
