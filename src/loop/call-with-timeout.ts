import type { Tool, ToolCallOptions } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolResult } from "../tool/tool-result.js";

/** What the model is told about a call past its time limit, after the `Error: ` prefix (the reference's pinned wording). */
export const TOOL_TIMED_OUT = "Tool execution timed out";

/** The limit a call passed, for the aborted signal's reason and the span (never shown to the model). */
export function toolTimeoutMessage(toolName: string, timeoutMs: number): string {
  return `Tool '${toolName}' timed out after ${timeoutMs} ms`;
}

/** A call that passed its limit: the limit, in milliseconds. */
export interface TimedOut {
  readonly timedOutAfterMs: number;
}

/** A parallel round's overall limit: `reached()` starts its clock on the first call and settles when it runs out. */
export interface BatchDeadline {
  readonly ms: number;
  readonly reached: () => Promise<void>;
}

/**
 * The tool's result, or {@link TimedOut} when `timeoutMs` passed first or the
 * round's `deadline` came (the tool's signal is then aborted).
 */
export async function callWithTimeout(
  tool: Tool,
  input: string,
  context: ToolCallContext,
  options: ToolCallOptions,
  timeoutMs: number | undefined,
  deadline?: BatchDeadline,
): Promise<ToolResult | TimedOut> {
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<TimedOut>((resolve) => {
    if (timeoutMs !== undefined) timer = setTimeout(() => resolve({ timedOutAfterMs: timeoutMs }), timeoutMs);
    deadline?.reached().then(() => resolve({ timedOutAfterMs: deadline.ms }));
  });
  // Not gated here: the loop calls this after the gate admitted the call (execute-tool-call.ts).
  const running = tool.call(input, context, { ...options, signal });
  try {
    const outcome = await Promise.race([running, expired]);
    if ("timedOutAfterMs" in outcome) {
      running.catch(() => {}); // a late failure of an abandoned call is nobody's business
      controller.abort(new Error(toolTimeoutMessage(tool.definition.name, outcome.timedOutAfterMs)));
    }
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}
