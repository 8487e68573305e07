import type { Tool, ToolCallOptions } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolResult } from "../tool/tool-result.js";

/** What the model is told about a call past its time limit. */
export function toolTimeoutMessage(toolName: string, timeoutMs: number): string {
  return `Tool '${toolName}' timed out after ${timeoutMs} ms`;
}

/** The tool's result, or `"timed-out"` when `timeoutMs` passed first (the tool's signal is then aborted). */
export async function callWithTimeout(
  tool: Tool,
  input: string,
  context: ToolCallContext,
  options: ToolCallOptions,
  timeoutMs: number,
): Promise<ToolResult | "timed-out"> {
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"timed-out">((resolve) => {
    timer = setTimeout(() => resolve("timed-out"), timeoutMs);
  });
  const running = tool.call(input, context, { ...options, signal });
  try {
    const outcome = await Promise.race([running, expired]);
    if (outcome === "timed-out") {
      running.catch(() => {}); // a late failure of an abandoned call is nobody's business
      controller.abort(new Error(toolTimeoutMessage(tool.definition.name, timeoutMs)));
    }
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}
