import type { Agent } from "../platform/agent.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import type { ProcessOptions } from "../platform/process-options.js";
import { ToolResult } from "../tool/tool-result.js";
import type { TypeToken } from "../tool/type-token.js";
import { communicatedResult } from "./communicated-result.js";
import { parseInput } from "./tool-input.js";

/** Runs `agent` on the LLM's `input` as a new top-level process: the shared body of AgentTool and GoalTool. */
export async function runEntryPoint<T>(
  platform: AgentPlatform,
  agent: Agent,
  inputType: TypeToken<T>,
  input: string,
  processOptions: ProcessOptions,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const parsed = parseInput(input, inputType);
  if (!parsed.ok) {
    return ToolResult.error(
      `BAD INPUT ERROR parsing tool input: ${parsed.message}: Try again and see if you can get the format right`,
    );
  }
  const process = await platform.runAgent(agent, parsed.value, {
    processOptions,
    ...(signal ? { signal } : {}),
  });
  signal?.throwIfAborted();
  if (process.status === "completed") return ToolResult.text(communicatedResult(process.result));
  if (process.status === "waiting") {
    return ToolResult.text(
      `Agent '${agent.name}' is waiting for input: ${process.statusReason ?? ""}`.trim(),
    );
  }
  const reason = process.statusReason ? `: ${process.statusReason}` : "";
  return ToolResult.error(`Agent '${agent.name}' ${process.status}${reason}`, process.failure);
}
