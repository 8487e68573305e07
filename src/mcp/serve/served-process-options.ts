import type { LoggingLevel } from "@modelcontextprotocol/server";
import type { LogLevel, OutputChannel } from "../../platform/output-channel.js";
import type { ProcessOptions } from "../../platform/process-options.js";
import { Logger } from "../../tool/logger.js";
import type { McpServerCall } from "./mcp-server-call.js";

const MCP_LEVEL: Readonly<Record<LogLevel, LoggingLevel>> = {
  trace: "debug",
  debug: "debug",
  info: "info",
  warn: "warning",
  error: "error",
};

function quietly(sent: Promise<void>): void {
  sent.catch((error: unknown) =>
    Logger.current().debug(`MCP server: a notification could not be sent: ${(error as Error).message}`),
  );
}

/**
 * `options` for an agent run that answers `call`: its output channel's
 * progress and log events, and each action start, also go to the MCP client
 * (progress only when the client sent a progress token; log messages above
 * the level it set). Outside a served call, `options` unchanged.
 */
export function servedProcessOptions(
  options: ProcessOptions,
  call: McpServerCall | undefined,
): ProcessOptions {
  if (!call) return options;
  const inner = options.outputChannel;
  const channel: OutputChannel = {
    async send(event) {
      await inner.send(event);
      // The client going away must not fail the run: MCP notifications are sent quietly.
      if (event.type === "progress") quietly(call.progress({ message: event.message }));
      else if (event.type === "logging")
        quietly(call.log(MCP_LEVEL[event.level], event.message, event.processId));
    },
  };
  return options.withOutputChannel(channel).withListener((event) => {
    if (event.type === "action-start") quietly(call.progress({ message: `Running action ${event.action}` }));
  });
}
