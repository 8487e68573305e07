import type { AgentProcessStatus } from "../platform/agent-process-status.js";
import type { ProcessCheckpoint } from "../platform/process-checkpoint.js";

/** The checkpoint of a process that has not run yet (`running`), or that ended before it could (`failed` with `reason`). */
export function queuedCheckpoint(
  id: string,
  agentName: string,
  ending?: { readonly status: AgentProcessStatus; readonly reason: string; readonly failure?: unknown },
): ProcessCheckpoint {
  const now = Date.now();
  return {
    id,
    agentName,
    parentId: undefined,
    startedAt: now,
    endedAt: ending ? now : undefined,
    status: ending?.status ?? "running",
    statusReason: ending?.reason,
    failure: ending?.failure,
    result: undefined,
    goalName: undefined,
    terminateRequest: undefined,
    history: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    costUsd: 0,
    llmInvocations: 0,
    embeddingInvocations: 0,
    modelsUsed: [],
    toolStats: [],
    blackboard: { objects: [], hidden: [], bindings: [], protectedNames: [], conditions: [] },
  };
}
