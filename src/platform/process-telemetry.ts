import type { Span } from "@opentelemetry/api";
import { startSpan } from "../loop/loop-telemetry.js";
import type { AgentProcess } from "./agent-process.js";

/** Starts the span of one agent process (GenAI semantic conventions: `invoke_agent <agent>`). */
export function startProcessSpan(process: AgentProcess, agentName: string | undefined): Span {
  const span = startSpan(agentName ? `invoke_agent ${agentName}` : "invoke_agent");
  if (span.isRecording()) {
    const contextId = process.processOptions.contextId;
    span.setAttributes({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": process.id,
      "embabel.process.id": process.id,
      ...(agentName ? { "gen_ai.agent.name": agentName, "embabel.agent.name": agentName } : {}),
      ...(contextId ? { "gen_ai.conversation.id": contextId } : {}),
      ...(process.parentId ? { "embabel.process.parent_id": process.parentId } : {}),
    });
  }
  return span;
}

/** Starts the span of one action run (`embabel.action <name>`). */
export function startActionSpan(process: AgentProcess, action: string): Span {
  const span = startSpan(`embabel.action ${action}`);
  if (span.isRecording()) {
    span.setAttributes({ "embabel.process.id": process.id, "embabel.action.name": action });
  }
  return span;
}
