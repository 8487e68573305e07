import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ClientCapabilities, LoggingLevel, Progress } from "@modelcontextprotocol/sdk/types.js";
import type { LogLevel } from "../platform/output-channel.js";
import { Logger } from "../tool/logger.js";
import { answerElicitation, type ElicitationScope, type McpElicitationHandler } from "./mcp-elicitation.js";
import { answerSampling, type McpSamplingModel } from "./mcp-sampling.js";
import type { McpRoot, ResolvedMcpServerConfig } from "./mcp-server-config.js";

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

/** Installs the handlers of server-to-client requests and notifications (the SDK's schemas load here, on connect). */
export async function installClientHandlers(client: Client, options: ClientHandlerOptions): Promise<void> {
  const { config, scopes } = options;
  const {
    CreateMessageRequestSchema,
    ElicitRequestSchema,
    ListRootsRequestSchema,
    LoggingMessageNotificationSchema,
  } = await import("@modelcontextprotocol/sdk/types.js");
  const handler: McpElicitationHandler | undefined = config.onElicitation;
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    const params = request.params;
    if (params.mode === "url") return { action: "decline" };
    return answerElicitation(params, { server: config.name, signal: extra.signal }, handler, scopes);
  });
  const roots = config.roots;
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map(toSdkRoot) }));
  const sampling = config.sampling;
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      answerSampling(request.params, sampling as McpSamplingModel, {
        server: config.name,
        signal: extra.signal,
      }),
    );
  }
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const { level, logger, data } = notification.params;
    const text = typeof data === "string" ? data : JSON.stringify(data);
    const message = `MCP server '${config.name}'${logger ? ` (${logger})` : ""}: ${text}`;
    const processes = new Set([...scopes].map((scope) => scope.process));
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
export function progressToProcess(scope: ElicitationScope, server: string): (progress: Progress) => void {
  return (progress) => {
    const of = progress.total === undefined ? "" : `/${progress.total}`;
    const text = progress.message ? `: ${progress.message}` : "";
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
