import type { TypeToken } from "../tool/type-token.js";

/** What an agent works towards: conditions that must all hold. */
export interface AgentGoal {
  /** Unique within the agent. */
  readonly name: string;
  /** What reaching the goal means. */
  readonly description: string;
  /** Conditions: `has:<Type>`, `hasRun:<action>`, named conditions; `!` negates. */
  readonly preconditions: readonly string[];
  /** The type of the process's result when this goal is reached. @default undefined (the last object added) */
  readonly output: TypeToken | undefined;
}
