import { ToolResult } from "../tool/tool-result.js";
import type { ModelToolCall, ToolCallOutcome } from "./execute-tool-call.js";
import type { SettledCall } from "./loop-waits.js";
import type { ToolSet } from "./tool-set.js";

/** An outcome as kept in a suspended loop. */
export function settledCall(outcome: ToolCallOutcome, index: number): SettledCall {
  const { call, result } = outcome;
  return {
    index,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    value: outcome.value,
    ...(outcome.input !== undefined ? { input: outcome.input } : {}),
    resultKind: result.kind === "error" ? "error" : "text",
    content: result.content,
    output: outcome.output,
    ...(outcome.failed ? { failed: true } : {}),
  };
}

/** The outcome a resumed round reports for a call settled before it stopped. */
export function restoredOutcome(call: ModelToolCall, settled: SettledCall, tools: ToolSet): ToolCallOutcome {
  const tool = settled.input === undefined ? undefined : tools.get(settled.toolName);
  return {
    call,
    ...(tool ? { tool } : {}),
    ...(settled.input !== undefined ? { input: settled.input } : {}),
    value: settled.value,
    result:
      settled.resultKind === "error" ? ToolResult.error(settled.content) : ToolResult.text(settled.content),
    output: settled.output,
    ...(settled.failed ? { failed: true } : {}),
  };
}
