import type { ToolLoopEvent } from "../loop/tool-loop.js";
import { formatDuration } from "./format-duration.js";
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
      return `Action ${event.action} ${event.outcome} in ${formatDuration(event.durationMs)}`;
    case "replan-requested":
      return `Action ${event.action} requested a replan: ${event.reason}`;
    case "object-added":
      return event.action === undefined
        ? `A ${event.typeName} was added to the blackboard`
        : `Action ${event.action} added a ${event.typeName} to the blackboard`;
    case "embedding-call-end":
      return `Embedding call to ${event.provider}/${event.modelId}: ${event.inputs} text(s), ${event.tokens} tokens in ${formatDuration(event.durationMs)}`;
    case "awaiting-response":
      return `Waiting for: ${event.requests.map((request) => `${request.id} ${request.what}`).join("; ")}`;
    case "response-received":
      return `Request ${event.requestId} answered by ${event.respondent}${event.approved === undefined ? "" : event.approved ? " (approved)" : " (denied)"} after ${formatDuration(event.waitedMs)}`;
    case "process-finished":
      return `Process ${event.status}${event.reason ? `: ${event.reason}` : ""} after ${formatDuration(event.durationMs)}`;
    case "llm-call-start":
      return `LLM call ${event.iteration} offering [${event.toolNames.join(", ")}]`;
    case "llm-call-end":
      return `LLM call ${event.iteration} to ${event.provider}/${event.modelId}: ${event.usage.totalTokens} tokens${event.costUsd === undefined ? "" : `, $${event.costUsd.toFixed(4)}`} in ${formatDuration(event.durationMs)}`;
    case "llm-call-retry":
      return `LLM call ${event.iteration} ${retryLine(event)}`;
    case "tool-call-start":
      return `Tool ${event.toolName}(${event.input})`;
    case "tool-call-end":
      return `Tool ${event.toolName} -> ${event.result.kind}: ${truncate(event.result.content)} (${formatDuration(event.durationMs)})`;
    case "tools-changed":
      return `Tools changed: +[${event.added.join(", ")}] -[${event.removed.join(", ")}]`;
  }
}

/** `retrying in 1.0 s after 429 (attempt 2 of 3)`: one retry of a model call, as the CLI and debug logs show it. */
export function retryLine(event: {
  readonly delayMs: number;
  readonly reason: string;
  readonly attempt: number;
  readonly maxAttempts: number;
}): string {
  return `retrying in ${(event.delayMs / 1000).toFixed(1)} s after ${event.reason} (attempt ${event.attempt} of ${event.maxAttempts})`;
}

function truncate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
