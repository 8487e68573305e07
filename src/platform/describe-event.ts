import type { ToolLoopEvent } from "../loop/tool-loop.js";
import type { ProcessLifecycleEvent } from "./process-event.js";

/** One human-readable line for a process or tool-loop event (debug verbosity). */
export function describeEvent(event: ProcessLifecycleEvent | ToolLoopEvent): string {
  switch (event.type) {
    case "process-started":
      return `Process started${event.agent ? ` for agent ${event.agent}` : ""}${event.parentId ? ` (parent ${event.parentId})` : ""}`;
    case "plan-formulated":
      return `Plan for goal '${event.goal}': ${event.actions.join(" -> ")} (cost ${event.cost})`;
    case "goal-achieved":
      return `Goal achieved: ${event.goal}`;
    case "action-start":
      return `Action ${event.action} started`;
    case "action-end":
      return `Action ${event.action} ${event.outcome} in ${event.durationMs}ms`;
    case "replan-requested":
      return `Action ${event.action} requested a replan: ${event.reason}`;
    case "embedding-call-end":
      return `Embedding call to ${event.provider}/${event.modelId}: ${event.inputs} text(s), ${event.tokens} tokens in ${event.durationMs}ms`;
    case "process-finished":
      return `Process ${event.status}${event.reason ? `: ${event.reason}` : ""} after ${event.durationMs}ms`;
    case "llm-call-start":
      return `LLM call ${event.iteration} offering [${event.toolNames.join(", ")}]`;
    case "llm-call-end":
      return `LLM call ${event.iteration} to ${event.provider}/${event.modelId}: ${event.usage.totalTokens} tokens in ${event.durationMs}ms`;
    case "tool-call-start":
      return `Tool ${event.toolName}(${event.input})`;
    case "tool-call-end":
      return `Tool ${event.toolName} -> ${event.result.kind}: ${truncate(event.result.content)} (${event.durationMs}ms)`;
    case "tools-changed":
      return `Tools changed: +[${event.added.join(", ")}] -[${event.removed.join(", ")}]`;
  }
}

function truncate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
