import { ConfigurationError } from "../errors/configuration-error.js";
import type { TypeToken } from "../tool/type-token.js";
import type { AgentGoal } from "./agent-goal.js";
import type { Agent, AgentAction, AgentCondition } from "./agent-interface.js";
import type { AgentProcess } from "./agent-process.js";
import {
  type GoapAction,
  type GoapGoal,
  type GoapNoPlan,
  type GoapPlan,
  GoapPlanner,
} from "./planning/goap-planner.js";

/** An agent compiled for planning: the planner over its actions, its goals, types and conditions. */
export interface AgentPlanning {
  readonly planner: GoapPlanner;
  /** Planner goal per agent goal name. */
  readonly goals: ReadonlyMap<string, GoapGoal>;
  /** Type token per `has:<Type>` type name. */
  readonly types: ReadonlyMap<string, TypeToken>;
  readonly conditions: ReadonlyMap<string, AgentCondition>;
  /** The agent's actions and goals by name. */
  readonly actions: ReadonlyMap<string, AgentAction>;
  readonly agentGoals: ReadonlyMap<string, AgentGoal>;
  /** Plans already made, per goal name (see {@link planGoal}). */
  readonly plans: Map<string, PlanMemo>;
  /** How each condition is read, decided once per agent (see {@link conditionSource}). */
  readonly sources: Map<string, ConditionSource>;
}

/** How a condition is read: its slot in a world state's values, and how to evaluate it for a process. */
interface ConditionSource {
  readonly index: number;
  readonly read: (process: AgentProcess) => boolean;
}

/** Memoised plans for one goal, keyed by the values of the conditions the goal's plans depend on. */
interface PlanMemo {
  readonly conditions: readonly string[];
  /** By the conditions' values as bits (a number, for up to 30 conditions and no exclusions) or as a string. */
  readonly plans: Map<string | number, GoapPlan | GoapNoPlan>;
}

/** Goals whose plans depend on more conditions than this are planned afresh each time. */
const MEMO_MAX_CONDITIONS = 64;
/** Up to this many conditions, a state's memo key is a number (one bit a condition), so no key string is built. */
const NUMERIC_KEY_MAX_CONDITIONS = 30;
/** Plans kept per goal; the memo starts over when full. */
const MEMO_MAX_PLANS = 256;

const cache = new WeakMap<Agent, AgentPlanning>();

/** `"!name"` → `{ name, value: false }`, `"name"` → `{ name, value: true }`. */
export function parseCondition(condition: string): { readonly name: string; readonly value: boolean } {
  const negated = condition.startsWith("!");
  const name = (negated ? condition.slice(1) : condition).trim();
  if (!name) throw new ConfigurationError(`Empty condition name in '${condition}'.`);
  return { name, value: !negated };
}

/** The condition that an object of `type` is on the blackboard. */
export const hasType = (type: TypeToken): string => `has:${type.name}`;

/** The condition that `action` has run successfully in the process. */
export const hasRun = (action: string): string => `hasRun:${action}`;

/** The agent's planning domain, compiled once per agent. */
export function agentPlanning(agent: Agent): AgentPlanning {
  let planning = cache.get(agent);
  if (!planning) {
    planning = compile(agent);
    cache.set(agent, planning);
  }
  return planning;
}

/**
 * The current world state of `process` for `agent`'s planner: `has:<Type>`
 * from the blackboard, `hasRun:<action>` from the history, named conditions
 * from the agent's condition functions or, failing that, the blackboard's
 * condition flags (unset is false). Each condition is evaluated once.
 */
export function worldState(planning: AgentPlanning, process: AgentProcess): (condition: string) => boolean {
  // Each condition's value once evaluated, by its source's index (a small array, not a map, per plan).
  const values: boolean[] = [];
  return (condition) => {
    const source = conditionSource(planning, condition);
    values[source.index] ??= source.read(process);
    return values[source.index] as boolean;
  };
}

/**
 * How `condition` is read for `planning`'s agent: a type on the blackboard
 * (`has:`), the history (`hasRun:`), a condition function or a blackboard
 * flag; decided on first use, then kept (no string work per plan).
 */
function conditionSource(planning: AgentPlanning, condition: string): ConditionSource {
  let source = planning.sources.get(condition);
  if (source === undefined) {
    const defined = planning.conditions.get(condition);
    const name = condition.slice(condition.indexOf(":") + 1);
    const type = planning.types.get(name) ?? name;
    source = {
      index: planning.sources.size,
      read: condition.startsWith("has:")
        ? (process) => process.blackboard.has(type)
        : condition.startsWith("hasRun:")
          ? (process) =>
              process.history.some((entry) => entry.actionName === name && entry.outcome === "succeeded")
          : defined
            ? (process) => defined.evaluate(process.blackboard, process)
            : (process) => process.blackboard.getCondition(condition) ?? false,
    };
    planning.sources.set(condition, source);
  }
  return source;
}

/**
 * The planner's answer for `goal` from the world state `holds`, memoised per
 * agent: a plan depends only on the goal's relevant conditions (and the
 * excluded actions), and the processes of one agent mostly meet the same
 * states (every process starts from the same one), so for goals with a small
 * relevant state the planner runs once per distinct state rather than once
 * per process step. The plans are frozen, since processes share them.
 */
export function planGoal(
  planning: AgentPlanning,
  holds: (condition: string) => boolean,
  goal: GoapGoal,
  exclude: ReadonlySet<string>,
): GoapPlan | GoapNoPlan {
  let memo = planning.plans.get(goal.name);
  if (!memo) {
    memo = { conditions: planning.planner.relevantConditions(goal), plans: new Map() };
    planning.plans.set(goal.name, memo);
  }
  if (memo.conditions.length > MEMO_MAX_CONDITIONS) return planning.planner.plan(holds, goal, { exclude });
  const key = stateKey(memo.conditions, holds, exclude);
  let plan = memo.plans.get(key);
  if (!plan) {
    plan = planning.planner.plan(holds, goal, { exclude });
    // Its lists too: `actions`, or `unsatisfied` and `unreachable`.
    for (const value of Object.values(plan)) if (Array.isArray(value)) Object.freeze(value);
    Object.freeze(plan);
    if (memo.plans.size >= MEMO_MAX_PLANS) memo.plans.clear();
    memo.plans.set(key, plan);
  }
  return plan;
}

/** The memo key of a state: the relevant conditions' values (and the exclusions). */
function stateKey(
  conditions: readonly string[],
  holds: (condition: string) => boolean,
  exclude: ReadonlySet<string>,
): string | number {
  if (conditions.length <= NUMERIC_KEY_MAX_CONDITIONS && exclude.size === 0) {
    let bits = 0;
    for (let index = 0; index < conditions.length; index++) {
      if (holds(conditions[index] as string)) bits |= 1 << index;
    }
    return bits;
  }
  let key = "";
  for (const condition of conditions) key += holds(condition) ? "1" : "0";
  if (exclude.size > 0) key += `|${[...exclude].sort().join("\u0000")}`;
  return key;
}

function compile(agent: Agent): AgentPlanning {
  const types = new Map<string, TypeToken>();
  const register = (type: TypeToken): string => {
    const existing = types.get(type.name);
    if (existing && existing !== type) {
      throw new ConfigurationError(
        `Agent '${agent.name}' uses two different types named '${type.name}': give each a distinct name (domainType(name, schema) or a class).`,
      );
    }
    types.set(type.name, type);
    return hasType(type);
  };
  const actions: GoapAction[] = agent.actions.map((action) => {
    const preconditions: Record<string, boolean> = {};
    const effects: Record<string, boolean> = {};
    for (const input of action.inputs) preconditions[register(input)] = true;
    parseInto(preconditions, action.pre);
    if (!action.canRerun) preconditions[hasRun(action.name)] = false;
    if (action.output) effects[register(action.output)] = true;
    parseInto(effects, action.post);
    effects[hasRun(action.name)] = true;
    return { name: action.name, preconditions, effects, cost: action.cost };
  });
  for (const goal of agent.goals) if (goal.output) register(goal.output);
  const goals = new Map(agent.goals.map((goal): [string, GoapGoal] => [goal.name, toGoapGoal(goal)]));
  return {
    planner: GoapPlanner.create(actions),
    goals,
    types,
    conditions: byName(agent.conditions),
    actions: byName(agent.actions),
    agentGoals: byName(agent.goals),
    plans: new Map(),
    sources: new Map(),
  };
}

function byName<T extends { readonly name: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.name, item]));
}

function toGoapGoal(goal: AgentGoal): GoapGoal {
  return { name: goal.name, preconditions: parseInto({}, goal.preconditions) };
}

/** Adds each of `conditions` (`"name"` or `"!name"`) to `into` as name → value. */
function parseInto(into: Record<string, boolean>, conditions: readonly string[]): Record<string, boolean> {
  for (const condition of conditions) {
    const { name, value } = parseCondition(condition);
    into[name] = value;
  }
  return into;
}
