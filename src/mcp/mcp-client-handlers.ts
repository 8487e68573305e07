import type {
  Client,
  ClientCapabilities,
  ElicitRequestFormParams,
  LoggingLevel,
  Progress,
} from "@modelcontextprotocol/client";
import type { LogLevel } from "../platform/output-channel.js";
import { Logger } from "../tool/logger.js";
import { answerElicitation, type ElicitationScope, type McpElicitationHandler } from "./mcp-elicitation.js";
import { answerSampling, type McpSamplingModel } from "./mcp-sampling.js";
import {
  MCP_LOG_LEVELS,
  type McpLogLevel,
  type McpRoot,
  type ResolvedMcpServerConfig,
} from "./mcp-server-config.js";

/** Log and progress notifications kept per call by default. */
const DEFAULT_NOTIFICATIONS_PER_CALL = 100;
/** Log messages kept from a server outside any call (per connection). */
const NOTIFICATIONS_OUTSIDE_CALLS = 100;
/** The most characters of one notification's text kept. */
export const MAX_NOTIFICATION_CHARS = 2_000;
const DEFAULT_LOG_LEVEL: McpLogLevel = "warning";

/** How many notifications of each call were kept and dropped. */
const budgets = new WeakMap<ElicitationScope, { kept: number; suppressed: number }>();

/** Whether one more notification of the call of `scope` is kept (else it is counted as suppressed). */
function admit(scope: ElicitationScope, limit: number): boolean {
  let budget = budgets.get(scope);
  if (!budget) {
    budget = { kept: 0, suppressed: 0 };
    budgets.set(scope, budget);
  }
  if (budget.kept < limit) {
    budget.kept++;
    return true;
  }
  budget.suppressed++;
  return false;
}

/**
 * At the end of a call: one record saying how many of its notifications were
 * suppressed, when any were.
 */
export function reportSuppressedNotifications(
  scope: ElicitationScope,
  config: ResolvedMcpServerConfig,
): void {
  const budget = budgets.get(scope);
  budgets.delete(scope);
  if (!budget || budget.suppressed === 0) return;
  const limit = config.maxNotificationsPerCall ?? DEFAULT_NOTIFICATIONS_PER_CALL;
  send(scope.process, {
    type: "logging",
    processId: scope.process.id,
    level: "warn",
    message: `MCP server '${config.name}': … ${budget.suppressed} more log and progress notifications of this call suppressed (at most ${limit} are kept per call).`,
  });
}

/** `text` cut to {@link MAX_NOTIFICATION_CHARS}. */
function capped(text: string): string {
  return text.length > MAX_NOTIFICATION_CHARS ? `${text.slice(0, MAX_NOTIFICATION_CHARS)}… (cut)` : text;
}

function severity(level: string): number {
  const index = (MCP_LOG_LEVELS as readonly string[]).indexOf(level);
  return index < 0 ? MCP_LOG_LEVELS.length : index;
}

/**
 * Asks the server to send log messages from the configured level up
 * (`logging/setLevel`), when it declares logging. A server that ignores it
 * has the rest dropped on arrival.
 */
export function setServerLogLevel(client: Client, config: ResolvedMcpServerConfig): void {
  // At 2026-07-28 there is no logging/setLevel: each call asks for its logs (see mcpLogLevelMeta).
  if (client.getProtocolEra() === "modern" || !client.getServerCapabilities()?.logging) return;
  client.setLoggingLevel(config.logLevel ?? DEFAULT_LOG_LEVEL).catch((error: unknown) => {
    Logger.current().debug(`MCP server '${config.name}' did not take logging/setLevel.`, {
      error: error instanceof Error ? error.message : String(error),
    });
  });
}

/**
 * At 2026-07-28, a request's `_meta` entry that asks for the server's log
 * messages from the configured level up (logs are opt-in per request there);
 * `undefined` at 2025-11-25 or when the server declares no logging.
 */
export function mcpLogLevelMeta(
  client: Client,
  config: ResolvedMcpServerConfig,
): Readonly<Record<string, string>> | undefined {
  if (client.getProtocolEra() !== "modern" || !client.getServerCapabilities()?.logging) return undefined;
  return { [LOG_LEVEL_META_KEY]: config.logLevel ?? DEFAULT_LOG_LEVEL };
}

/** The `_meta` key of a 2026-07-28 request's log level (the SDK's `LOG_LEVEL_META_KEY`, spelled out: this file loads no SDK value). */
const LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel";

/** What the handlers of one server's client need. */
export interface ClientHandlerOptions {
  readonly config: ResolvedMcpServerConfig;
  /** The calls into the server running in agent processes now. */
  readonly scopes: ReadonlySet<ElicitationScope>;
}

/**
 * What the client declares: elicitation (form mode, defaults applied) always,
 * since an unanswerable request is declined; roots when configured; sampling
 * when enabled.
 */
export function clientCapabilities(config: ResolvedMcpServerConfig): ClientCapabilities {
  return {
    elicitation: { form: { applyDefaults: true } },
    ...(config.roots ? { roots: {} } : {}),
    ...(config.sampling ? { sampling: {} } : {}),
  };
}

/**
 * Installs the handlers of server-to-client requests and notifications. At
 * 2025-11-25 the server sends these requests; at 2026-07-28 a result's
 * `input_required` asks them, and the SDK answers through the same handlers
 * (then sends the call again with the answers).
 */
export function installClientHandlers(client: Client, options: ClientHandlerOptions): void {
  const { config, scopes } = options;
  const handler: McpElicitationHandler | undefined = config.onElicitation;
  client.setRequestHandler("elicitation/create", (request, ctx) => {
    const params = request.params;
    if (params.mode === "url") return { action: "decline" };
    return answerElicitation(
      params as ElicitRequestFormParams,
      { server: config.name, signal: ctx.mcpReq.signal },
      handler,
      scopes,
    );
  });
  const roots = config.roots;
  if (roots) client.setRequestHandler("roots/list", () => ({ roots: roots.map(toSdkRoot) }));
  const sampling = config.sampling;
  if (sampling) {
    client.setRequestHandler("sampling/createMessage", (request, ctx) => {
      // The request does not say which call it serves: the oldest call open on this server pays.
      const [scope] = scopes;
      return answerSampling(request.params, sampling as McpSamplingModel, {
        server: config.name,
        signal: ctx.mcpReq.signal,
        call: scope === undefined ? undefined : { process: scope.process, key: scope },
      });
    });
  }
  const least = severity(config.logLevel ?? DEFAULT_LOG_LEVEL);
  const limit = config.maxNotificationsPerCall ?? DEFAULT_NOTIFICATIONS_PER_CALL;
  let outsideCalls = 0;
  client.setNotificationHandler("notifications/message", (notification) => {
    const { level, logger, data } = notification.params;
    if (severity(level) < least) return;
    const processes = new Set<ElicitationScope["process"]>();
    for (const scope of scopes) if (admit(scope, limit)) processes.add(scope.process);
    if (scopes.size === 0 && outsideCalls++ >= NOTIFICATIONS_OUTSIDE_CALLS) {
      if (outsideCalls === NOTIFICATIONS_OUTSIDE_CALLS + 1) {
        Logger.current().warn(
          `MCP server '${config.name}' sent more than ${NOTIFICATIONS_OUTSIDE_CALLS} log messages outside tool calls; further ones are dropped.`,
        );
      }
      return;
    }
    if (scopes.size > 0 && processes.size === 0) return;
    const text = capped(typeof data === "string" ? data : (JSON.stringify(data) ?? String(data)));
    const message = `MCP server '${config.name}'${logger ? ` (${capped(String(logger))})` : ""}: ${text}`;
    if (processes.size === 0) {
      Logger.current().info(message, { server: config.name, level });
      return;
    }
    for (const process of processes) {
      send(process, { type: "logging", processId: process.id, level: logLevelOf(level), message });
    }
  });
}

/** Sends a call's progress notifications to its process's output channel. */
export function progressToProcess(
  scope: ElicitationScope,
  config: ResolvedMcpServerConfig,
): (progress: Progress) => void {
  const server = config.name;
  const limit = config.maxNotificationsPerCall ?? DEFAULT_NOTIFICATIONS_PER_CALL;
  return (progress) => {
    if (!admit(scope, limit)) return;
    const of = progress.total === undefined ? "" : `/${progress.total}`;
    const text = progress.message ? `: ${capped(String(progress.message))}` : "";
    send(scope.process, {
      type: "progress",
      processId: scope.process.id,
      message: `MCP server '${server}' progress ${progress.progress}${of}${text}`,
    });
  };
}

function send(
  process: ElicitationScope["process"],
  event: Parameters<ElicitationScope["process"]["processOptions"]["outputChannel"]["send"]>[0],
): void {
  try {
    const sent = process.processOptions.outputChannel.send(event);
    if (sent) sent.catch(() => undefined);
  } catch {
    // A failing channel never changes the call.
  }
}

function logLevelOf(level: LoggingLevel): LogLevel {
  switch (level) {
    case "debug":
      return "debug";
    case "info":
    case "notice":
      return "info";
    case "warning":
      return "warn";
    default:
      return "error";
  }
}

function toSdkRoot(root: McpRoot): { uri: string; name?: string } {
  return root.name === undefined ? { uri: root.uri } : { uri: root.uri, name: root.name };
}
