import type { LlmUsage } from "../loop/tool-loop.js";
import type { ActionInvocation } from "./action-invocation.js";
import type { AgentProcessStatus } from "./agent-process-status.js";
import type { BlackboardSnapshot } from "./blackboard.js";
import type { ModelUsed } from "./process-usage.js";
import type { WaitState } from "./process-waits.js";
import type { ToolStats } from "./tool-statistics.js";

/**
 * The state of an agent process at one moment, enough to continue it
 * elsewhere (`runAgent(agent, undefined, { checkpoint })`) or to show it:
 * identity, status, blackboard, history, usage and cost. Values are the
 * objects themselves; a runner that moves it between machines serialises it.
 */
export interface ProcessCheckpoint {
  /** The process id (kept when the process continues). */
  readonly id: string;
  /** The agent run, by name; `undefined` for `runInProcess`. */
  readonly agentName: string | undefined;
  /** The id of the process that started this one. */
  readonly parentId: string | undefined;
  /** When the process first started, in milliseconds since the epoch. */
  readonly startedAt: number;
  /** When it ended, or `undefined` while it runs. */
  readonly endedAt: number | undefined;
  readonly status: AgentProcessStatus;
  readonly statusReason: string | undefined;
  /** The error that failed it, if any. */
  readonly failure: unknown;
  /** The result, once completed. */
  readonly result: unknown;
  /** The name of the goal of the latest plan. */
  readonly goalName: string | undefined;
  /** A pending graceful termination request. */
  readonly terminateRequest: string | undefined;
  /** Every action run, in order. */
  readonly history: readonly ActionInvocation[];
  readonly usage: LlmUsage;
  readonly costUsd: number;
  readonly llmInvocations: number;
  /** LLM calls retried after a retryable failure. @default 0 (checkpoints written before retries were counted) */
  readonly llmRetries?: number;
  readonly embeddingInvocations: number;
  readonly modelsUsed: readonly ModelUsed[];
  /** Calls per tool name. */
  readonly toolStats: readonly (readonly [string, ToolStats])[];
  readonly blackboard: BlackboardSnapshot;
  /** A waiting (or resumed) process's requests, answers and the journal of its interrupted action (plain JSON, except the kept states of stopped loops, values like the blackboard's); absent when nothing waits. */
  readonly waiting?: WaitState;
}
