// The agent model as types (Agent, its actions and conditions, what counts as
// one), below the builders: define-agent, the decorators, the planner and the
// process name these; agent.ts, which holds the `Agent` factories, imports
// the builders, so a type there would close a circle through it.
import type { TypeToken } from "../tool/type-token.js";
import type { AgentGoal } from "./agent-goal.js";
import type { AgentProcess } from "./agent-process.js";
import type { Blackboard } from "./blackboard.js";
import type { OperationContext } from "./operation-context.js";

/** One step an agent can take: typed inputs from the blackboard, one typed output added to it. */
export interface AgentAction {
  /** Unique within the agent; `hasRun:<name>` in the planner's world state. */
  readonly name: string;
  /** What the action does. @default "" */
  readonly description: string;
  /** Read from the blackboard (the latest object of each type) and passed to `run` in order. */
  readonly inputs: readonly TypeToken[];
  /** The type of the value `run` returns, added to the blackboard; `undefined` when it returns nothing of note. */
  readonly output: TypeToken | undefined;
  /** Planning cost; lower is preferred. @default 1 */
  readonly cost: number;
  /** Extra preconditions: condition names, `!name` for "must be false". @default [] */
  readonly pre: readonly string[];
  /** Extra effects: condition names, `!name` for "becomes false". @default [] */
  readonly post: readonly string[];
  /** Whether the action may run more than once in a process. @default false */
  readonly canRerun: boolean;
  /** Runs the action with its inputs and the operation context. */
  run(inputs: readonly unknown[], context: OperationContext): unknown;
}

/** A named condition the planner reads, computed from the blackboard. */
export interface AgentCondition {
  /** The name actions' `pre`/`post` and goals use. */
  readonly name: string;
  /** Whether the condition holds now (evaluated once per planning step). */
  evaluate(blackboard: Blackboard, process: AgentProcess): boolean;
}

/** An agent: a name, a description, actions, goals and conditions; run with `platform.runAgent`. */
export interface Agent {
  /** Unique on a platform; `runAgent(name)` finds it. */
  readonly name: string;
  /** What the agent does (also the description of a `Subagent` tool for it). */
  readonly description: string;
  /** The steps the planner can choose from. */
  readonly actions: readonly AgentAction[];
  /** What the agent works towards; reaching any one completes the process. */
  readonly goals: readonly AgentGoal[];
  /** Named conditions computed from the blackboard. */
  readonly conditions: readonly AgentCondition[];
}

/** Anything `platform.deploy` and `Agent.of` accept: an agent, an `@agent` class, or an instance of one. */
export type AgentLike = Agent | (new () => object) | object;
