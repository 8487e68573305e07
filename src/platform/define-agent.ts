import { ConfigurationError } from "../errors/configuration-error.js";
import { type TypeLike, type TypeOf, TypeToken } from "../tool/type-token.js";
import { type ActionSpec, buildAction } from "./action-spec.js";
import { brandAgent } from "./agent-brand.js";
import type { AgentGoal } from "./agent-goal.js";
import type { Agent, AgentAction, AgentCondition } from "./agent-interface.js";
import type { AgentProcess } from "./agent-process.js";
import type { Blackboard } from "./blackboard.js";
import type { OperationContext } from "./operation-context.js";

/** The builder form of one action (see {@link defineAgent}). */
export interface ActionInit extends ActionSpec {
  /** Unique within the agent. */
  readonly name: string;
  /** Makes reaching this action's output (after it ran) a goal of the agent. @default none */
  readonly achievesGoal?: { readonly description: string; readonly name?: string };
  /** The action's body: its inputs in order, then the `OperationContext`; returns the output. */
  // biome-ignore lint/suspicious/noExplicitAny: inputs are typed per action by defineAction
  readonly run: (...args: any[]) => unknown;
}

/** The builder form of one goal (see {@link defineAgent}). */
export interface GoalInit {
  /** Unique within the agent. */
  readonly name: string;
  /** What reaching the goal means. */
  readonly description: string;
  /** Conditions that must hold. @default [] */
  readonly pre?: readonly string[];
  /** The goal holds once an object of this type is on the blackboard; it is the process's result. @default none */
  readonly output?: TypeLike;
}

/** The builder form of an agent. */
export interface AgentInit {
  /** Unique on a platform. */
  readonly name: string;
  /** What the agent does (also the description of a `Subagent` tool for it). */
  readonly description: string;
  /** The agent's actions; at least one should reach a goal. */
  readonly actions: readonly ActionInit[];
  /** Goals besides those declared with `achievesGoal` on actions. @default [] */
  readonly goals?: readonly GoalInit[];
  /** Named conditions computed from the blackboard. @default {} */
  readonly conditions?: Readonly<Record<string, (blackboard: Blackboard, process: AgentProcess) => boolean>>;
}

/** A typed action for {@link defineAgent}: `run` receives the input value and the context. */
export function defineAction<I extends TypeLike, O extends TypeLike>(
  init: Omit<ActionInit, "input" | "output" | "run"> & {
    readonly input: I;
    readonly output: O;
    readonly run: (input: TypeOf<I>, context: OperationContext) => TypeOf<O> | Promise<TypeOf<O>>;
  },
): ActionInit {
  return init;
}

/** An agent built without decorators. Throws a {@link ConfigurationError} when it has no goal or duplicate names. */
export function defineAgent(init: AgentInit): Agent {
  const actions = init.actions.map(toAction);
  const goals = [
    ...init.actions.flatMap((action, index) =>
      action.achievesGoal
        ? [goalOfAction(init.name, actions[index] as AgentAction, action.achievesGoal)]
        : [],
    ),
    ...(init.goals ?? []).map(toGoal),
  ];
  const conditions = Object.entries(init.conditions ?? {}).map(([name, evaluate]) => ({ name, evaluate }));
  return createAgent(init.name, init.description, actions, goals, conditions);
}

/** Validates and freezes an agent. */
export function createAgent(
  name: string,
  description: string,
  actions: readonly AgentAction[],
  goals: readonly AgentGoal[],
  conditions: readonly AgentCondition[],
): Agent {
  if (!name.trim()) throw new ConfigurationError("An agent needs a non-blank name.");
  if (goals.length === 0 && actions.length === 0) {
    throw new ConfigurationError(
      `Agent '${name}' has no goal and no actions: add actions (@action methods, or actions in defineAgent) and mark one with achievesGoal (or @achievesGoal).`,
    );
  }
  if (goals.length === 0) {
    throw new ConfigurationError(
      `Agent '${name}' has no goal: mark an action with achievesGoal (or @achievesGoal), or add goals.`,
    );
  }
  requireUnique(
    name,
    "action",
    actions.map((action) => action.name),
  );
  requireUnique(
    name,
    "goal",
    goals.map((goal) => goal.name),
  );
  requireUnique(
    name,
    "condition",
    conditions.map((condition) => condition.name),
  );
  return Object.freeze(
    brandAgent({
      name,
      description,
      actions: Object.freeze([...actions]),
      goals: Object.freeze([...goals]),
      conditions: Object.freeze([...conditions]),
    }),
  );
}

/** The goal an `achievesGoal` action declares: it has run and its output is on the blackboard. */
export function goalOfAction(
  agentName: string,
  action: AgentAction,
  options: { readonly description: string; readonly name?: string },
): AgentGoal {
  return Object.freeze({
    name: options.name ?? `${agentName}.${action.name}`,
    description: options.description,
    preconditions: Object.freeze([
      `hasRun:${action.name}`,
      ...(action.output ? [`has:${action.output.name}`] : []),
    ]),
    output: action.output,
  });
}

function toAction(init: ActionInit): AgentAction {
  return buildAction(init.name, init, init.run);
}

function toGoal(init: GoalInit): AgentGoal {
  const output = init.output === undefined ? undefined : TypeToken.of(init.output);
  return Object.freeze({
    name: init.name,
    description: init.description,
    preconditions: Object.freeze([...(init.pre ?? []), ...(output ? [`has:${output.name}`] : [])]),
    output,
  });
}

function requireUnique(agent: string, kind: string, names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new ConfigurationError(`Agent '${agent}' has two ${kind}s named '${name}'.`);
    seen.add(name);
  }
}
