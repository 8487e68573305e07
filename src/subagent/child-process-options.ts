import type { AgentProcess } from "../platform/agent-process.js";
import { ProcessOptions } from "../platform/process-options.js";
import { ToolCallContext } from "../tool/tool-call-context.js";

/**
 * The options of a subagent's process: a blackboard spawned from the
 * parent's (the child sees the parent's objects and writes its own), the
 * parent's verbosity, listeners, output channel and context id, and the
 * parent's tool-call context merged with the calling tool's (without the
 * calling loop's id). The budget starts fresh, as in the reference.
 */
export function childProcessOptions(parent: AgentProcess, callContext: ToolCallContext): ProcessOptions {
  const inherited = parent.processOptions;
  const entries = callContext.toRecord();
  delete entries[ToolCallContext.LOOP_ID_KEY];
  return new ProcessOptions({
    contextId: inherited.contextId,
    toolCallContext: inherited.toolCallContext.merge(entries),
    verbosity: inherited.verbosity,
    listeners: inherited.listeners,
    outputChannel: inherited.outputChannel,
    blackboard: parent.blackboard.spawn(),
  });
}
