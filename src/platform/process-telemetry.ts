import { type Span, trace } from "@opentelemetry/api";
import type { AgentProcess } from "./agent-process.js";

// A proxy tracer: no-op until the application registers an OpenTelemetry SDK.
const tracer = trace.getTracer("embabel-ts");

/** Starts the span of one agent process (`embabel.process <agent>`). */
export function startProcessSpan(process: AgentProcess, agentName: string | undefined): Span {
  const span = tracer.startSpan(agentName ? `embabel.process ${agentName}` : "embabel.process");
  if (span.isRecording()) {
    span.setAttributes({
      "embabel.process.id": process.id,
      ...(agentName ? { "embabel.agent.name": agentName } : {}),
      ...(process.parentId ? { "embabel.process.parent_id": process.parentId } : {}),
    });
  }
  return span;
}

/** Starts the span of one action run (`embabel.action <name>`). */
export function startActionSpan(process: AgentProcess, action: string): Span {
  const span = tracer.startSpan(`embabel.action ${action}`);
  if (span.isRecording()) {
    span.setAttributes({ "embabel.process.id": process.id, "embabel.action.name": action });
  }
  return span;
}

/** Starts the span of one embedding call (`embabel.embedding.call`). */
export function startEmbeddingSpan(
  process: AgentProcess,
  modelId: string,
  provider: string,
  inputs: number,
): Span {
  const span = tracer.startSpan("embabel.embedding.call");
  if (span.isRecording()) {
    span.setAttributes({
      "embabel.process.id": process.id,
      "gen_ai.request.model": modelId,
      "gen_ai.system": provider,
      "embabel.embedding.inputs": inputs,
    });
  }
  return span;
}
