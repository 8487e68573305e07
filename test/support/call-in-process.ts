import { AgentPlatform } from "../../src/platform/agent-platform.js";
import { ListOutputChannel, type OutputChannel } from "../../src/platform/output-channel.js";
import { ProcessOptions } from "../../src/platform/process-options.js";
import type { Tool } from "../../src/tool/tool.js";
import type { ToolResult } from "../../src/tool/tool-result.js";

/** Calls `tool` with `input` inside a process whose output channel is `channel`. */
export async function callInProcess(
  tool: Tool,
  input: string,
  channel: OutputChannel = new ListOutputChannel(),
) {
  const process = await AgentPlatform.create({ models: {} }).runInProcess(() => tool.call(input), {
    processOptions: ProcessOptions.DEFAULT.withOutputChannel(channel),
  });
  return { process, result: process.result as ToolResult };
}

/** An output channel whose every send fails with `channel unavailable`. */
export const failingChannel: OutputChannel = {
  send: async () => {
    throw new Error("channel unavailable");
  },
};
