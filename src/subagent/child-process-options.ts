import type { AgentProcess } from "../platform/agent-process.js";
import type { ProcessOptions } from "../platform/process-options.js";
import { ToolCallContext } from "../tool/tool-call-context.js";

/**
 * `options` with the calling tool's context merged into its tool-call context
 * (the call's entries win), without the calling loop's id, so the new
 * process's loops get their own.
 */
export function withCallContext(options: ProcessOptions, callContext: ToolCallContext): ProcessOptions {
  if (callContext.isEmpty) return options;
  const entries = callContext.toRecord();
  delete entries[ToolCallContext.LOOP_ID_KEY];
  return options.withToolCallContext(options.toolCallContext.merge(entries));
}

/**
 * The options of a subagent's process: the parent's child options (a
 * blackboard spawned from the parent's, the parent's verbosity, listeners,
 * output channel and context id, a fresh budget that the parent's token and
 * cost budgets still bound), with the parent's tool-call
 * context merged with the calling tool's.
 */
export function childProcessOptions(parent: AgentProcess, callContext: ToolCallContext): ProcessOptions {
  return withCallContext(parent.childProcessOptions(), callContext);
}
