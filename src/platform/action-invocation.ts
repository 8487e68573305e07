import type { ActionOutcome } from "./process-event.js";

/** One action run, in the process's history. */
export interface ActionInvocation {
  /** The action's name. */
  readonly actionName: string;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  /** How long the action ran. */
  readonly durationMs: number;
  /** How it ended: `succeeded`, `failed`, `replan`, `terminated` or `killed`. */
  readonly outcome: ActionOutcome;
}
