import type { AgentProcess } from "../platform/agent-process.js";
import type { ProcessOptions } from "../platform/process-options.js";
import { ToolCallContext } from "../tool/tool-call-context.js";

/**
 * The options of a subagent's process: the parent's child options (a
 * blackboard spawned from the parent's, the parent's verbosity, listeners,
 * output channel and context id, a fresh budget), with the parent's tool-call
 * context merged with the calling tool's (without the calling loop's id, so
 * the child's loops get their own).
 */
export function childProcessOptions(parent: AgentProcess, callContext: ToolCallContext): ProcessOptions {
  const entries = callContext.toRecord();
  delete entries[ToolCallContext.LOOP_ID_KEY];
  const options = parent.childProcessOptions();
  return options.withToolCallContext(options.toolCallContext.merge(entries));
}
