import type { Span } from "@opentelemetry/api";
import { startSpan } from "../loop/loop-telemetry.js";
import { activeContext, startOtelSpan } from "../loop/otel-global.js";
import type { AcceptedResponse } from "./process-waits.js";

/** What a span reads of a process: its ids and conversation id (an `AgentProcess` is one). */
export interface TracedProcess {
  readonly id: string;
  readonly parentId: string | undefined;
  readonly processOptions: { readonly contextId?: string | undefined };
}

/** Starts the span of one agent process (GenAI semantic conventions: `invoke_agent <agent>`). */
export function startProcessSpan(process: TracedProcess, agentName: string | undefined): Span {
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
export function startActionSpan(process: TracedProcess, action: string): Span {
  const span = startSpan(`embabel.action ${action}`);
  if (span.isRecording()) {
    span.setAttributes({ "embabel.process.id": process.id, "embabel.action.name": action });
  }
  return span;
}

/** Starts the span of one embedding call (GenAI semantic conventions: `embeddings <model>`). */
export function startEmbeddingSpan(
  process: TracedProcess,
  modelId: string,
  provider: string,
  inputs: number,
): Span {
  const span = startSpan(`embeddings ${modelId}`);
  if (span.isRecording()) {
    span.setAttributes({
      "gen_ai.operation.name": "embeddings",
      "embabel.process.id": process.id,
      "gen_ai.request.model": modelId,
      "gen_ai.provider.name": provider.split(".")[0] ?? provider,
      "embabel.llm.provider": provider,
      "embabel.embedding.inputs": inputs,
    });
  }
  return span;
}

/**
 * Records one answered wait as a span (`embabel.wait <kind>`) from when it was
 * asked to when it was answered, with the verdict of an approval or confirmation.
 */
export function recordWaitSpan(processId: string, accepted: AcceptedResponse, respondent: string): void {
  const { request } = accepted;
  const approved = (accepted.response as { approved?: unknown } | undefined)?.approved;
  const span = startOtelSpan(
    "embabel-ts",
    `embabel.wait ${request.kind}`,
    { startTime: request.since },
    activeContext(),
  );
  if (!span.isRecording()) {
    span.end();
    return;
  }
  span.setAttributes({
    "embabel.process.id": processId,
    "embabel.wait.request_id": request.id,
    "embabel.wait.kind": request.kind,
    "embabel.wait.what": request.what,
    "embabel.wait.respondent": respondent,
    ...(typeof approved === "boolean" ? { "embabel.wait.approved": approved } : {}),
  });
  span.end();
}
