/**
 * Where an agent process is: `running`; `completed` (goal reached or function
 * returned); `failed` (an action threw); `stuck` (no plan reaches the goal);
 * `terminated` (a budget or a termination request ended it); `killed`
 * (cancelled from outside); `waiting` (awaiting input).
 */
export type AgentProcessStatus =
  | "running"
  | "completed"
  | "failed"
  | "stuck"
  | "terminated"
  | "killed"
  | "waiting";

/** Queries on {@link AgentProcessStatus}. */
export const AgentProcessStatus = {
  /** Every status, in lifecycle order. */
  ALL: Object.freeze([
    "running",
    "completed",
    "failed",
    "stuck",
    "terminated",
    "killed",
    "waiting",
  ] as const) satisfies readonly AgentProcessStatus[],
  /** True when the process has ended (anything but `running` and `waiting`). */
  isFinished(status: AgentProcessStatus): boolean {
    return status !== "running" && status !== "waiting";
  },
};
