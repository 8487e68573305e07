import type { ActionInvocation } from "./action-invocation.js";
import type { AgentGoal } from "./agent-goal.js";
import type { AgentProcessStatus } from "./agent-process-status.js";
import type { ProcessCheckpoint } from "./process-checkpoint.js";
import { ProcessUsage } from "./process-usage.js";
import { ProcessWaits } from "./process-waits.js";
import { ToolStatistics } from "./tool-statistics.js";

/** What an agent process holds while it runs: one object, shared by the process and its {@link ProcessControl}. */
export interface ProcessState {
  status: AgentProcessStatus;
  statusReason: string | undefined;
  failure: unknown;
  result: unknown;
  goal: AgentGoal | undefined;
  endedAt: number | undefined;
  terminateRequest: string | undefined;
  readonly history: ActionInvocation[];
  /** Tokens, cost, call counts and models of the process (and of its children). */
  readonly usage: ProcessUsage;
  /** Calls per tool name. */
  readonly tools: ToolStatistics;
  /** The action now running, for `object-added` events. */
  action: string | undefined;
  /** Requests, answers and the interrupted action's journal; created on first use, only on a root process. */
  waits: ProcessWaits | undefined;
}

/** The state of a new process. */
export function initialState(): ProcessState {
  return {
    status: "running",
    statusReason: undefined,
    failure: undefined,
    result: undefined,
    goal: undefined,
    endedAt: undefined,
    terminateRequest: undefined,
    history: [],
    usage: new ProcessUsage(),
    tools: new ToolStatistics(),
    action: undefined,
    waits: undefined,
  };
}

/** The state of a process continued from `checkpoint`; `goals` are its agent's (the checkpoint names its goal). */
export function restoredState(checkpoint: ProcessCheckpoint, goals: readonly AgentGoal[]): ProcessState {
  return {
    status: checkpoint.status,
    statusReason: checkpoint.statusReason,
    failure: checkpoint.failure,
    result: checkpoint.result,
    goal: goals.find((goal) => goal.name === checkpoint.goalName),
    endedAt: checkpoint.endedAt,
    terminateRequest: checkpoint.terminateRequest,
    history: [...checkpoint.history],
    usage: ProcessUsage.restored(checkpoint),
    tools: new ToolStatistics(checkpoint.toolStats),
    action: undefined,
    waits: checkpoint.waiting ? new ProcessWaits(checkpoint.waiting) : undefined,
  };
}
