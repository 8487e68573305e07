import { ConfigurationError } from "../errors/configuration-error.js";
import type { Agent, AgentAction, AgentCondition, AgentGoal } from "../platform/agent.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import { createAgent } from "../platform/define-agent.js";
import type { ProcessListener } from "../platform/process-event.js";
import { ProcessOptions } from "../platform/process-options.js";
import { Verbosity } from "../platform/verbosity.js";
import { type TypeLike, type TypeOf, TypeToken } from "../tool/type-token.js";
import { EntryPointTool } from "./entry-point.js";
import { toolNameFor } from "./tool-input.js";

/** Options of {@link GoalTool}. */
export interface GoalToolOptions {
  /** The verbosity of each run. @default showPrompts on */
  readonly verbosity?: Verbosity;
  /** Listeners of each run. @default [] */
  readonly listeners?: readonly ProcessListener[];
}

/** `com.myco.MyAgent.myGoal` → `MyAgent_myGoal`: the last two dot-segments joined by `_`, made a valid tool name. */
export function sanitizedGoalName(goalName: string): string {
  return toolNameFor(goalName.split(".").slice(-2).join("_"), "goal");
}

/**
 * A goal as a tool for the outside world: each call plans towards the goal
 * with the actions of every agent deployed on the platform, as a new
 * top-level process with its own verbosity (prompt-showing by default,
 * {@link GoalTool.withVerbosity} to change it) and listeners; nothing is
 * inherited from a calling process, though the call's `ToolCallContext`
 * reaches the run's tools. Named `<Agent>_<goal>`, described by the
 * goal's description; bad input is answered with `BAD INPUT ERROR …`.
 */
export class GoalTool<T = unknown> extends EntryPointTool<T> {
  /** The verbosity of each run. */
  readonly verbosity: Verbosity;
  /** The listeners of each run. */
  readonly listeners: readonly ProcessListener[];

  constructor(
    platform: AgentPlatform,
    /** The goal each run works towards. */
    readonly goal: AgentGoal,
    inputType: TypeToken<T>,
    options: GoalToolOptions = {},
  ) {
    super(platform, sanitizedGoalName(goal.name), goal.description, inputType);
    this.verbosity = options.verbosity ?? new Verbosity().withShowPrompts(true);
    this.listeners = options.listeners ?? [];
  }

  /** The tool for the goal named `goal` (`<Agent>.<action>` for `@achievesGoal`) among the deployed agents. */
  static of<L extends TypeLike>(
    platform: AgentPlatform,
    goal: string | AgentGoal,
    inputType: L,
    options?: GoalToolOptions,
  ): GoalTool<TypeOf<L>> {
    const resolved = typeof goal === "string" ? findGoal(platform, goal) : goal;
    return new GoalTool(platform, resolved, TypeToken.of(inputType) as TypeToken<TypeOf<L>>, options);
  }

  /** A copy running with `verbosity`. */
  withVerbosity(verbosity: Verbosity): GoalTool<T> {
    return new GoalTool(this.platform, this.goal, this.inputType, { verbosity, listeners: this.listeners });
  }

  /** A copy whose runs also report to `listener`. */
  withListener(listener: ProcessListener): GoalTool<T> {
    return new GoalTool(this.platform, this.goal, this.inputType, {
      verbosity: this.verbosity,
      listeners: [...this.listeners, listener],
    });
  }

  protected runOptions(): ProcessOptions {
    return new ProcessOptions({ verbosity: this.verbosity, listeners: this.listeners });
  }

  protected runAgent(): Agent {
    return goalAgent(this.platform, this.goal, this.definition.name);
  }

  /** A short description, for logs. */
  override toString(): string {
    return `GoalTool(${this.goal.name})`;
  }
}

function findGoal(platform: AgentPlatform, name: string): AgentGoal {
  const goals = platform.agents.flatMap((agent) => agent.goals);
  const goal = goals.find((candidate) => candidate.name === name);
  if (!goal) {
    throw new ConfigurationError(
      `No goal named '${name}' on platform '${platform.name}'. Goals: [${goals.map((candidate) => candidate.name).join(", ")}]`,
    );
  }
  return goal;
}

/**
 * An agent with one goal and the actions and conditions of every deployed
 * agent; the agent owning the goal comes first, so its action wins where two
 * agents use one action name.
 */
function goalAgent(platform: AgentPlatform, goal: AgentGoal, name: string): Agent {
  const agents = [...platform.agents];
  const owner = agents.findIndex((agent) => agent.goals.includes(goal));
  if (owner > 0) agents.unshift(...agents.splice(owner, 1));
  const actions = new Map<string, AgentAction>();
  const conditions = new Map<string, AgentCondition>();
  for (const agent of agents) {
    for (const action of agent.actions) if (!actions.has(action.name)) actions.set(action.name, action);
    for (const condition of agent.conditions) {
      if (!conditions.has(condition.name)) conditions.set(condition.name, condition);
    }
  }
  return createAgent(name, goal.description, [...actions.values()], [goal], [...conditions.values()]);
}
