import { ConfigurationError } from "../errors/configuration-error.js";
import { metadataListsOf, ownMetadataList } from "../tool/decorator-metadata.js";
import { type ActionSpec, buildAction } from "./action-spec.js";
import { type AgentClassOptions, recordAgentClass, useAgentClassReader } from "./agent-classes.js";
import type { AgentGoal } from "./agent-goal.js";
import type { Agent, AgentAction, AgentCondition } from "./agent-interface.js";
import type { AgentProcess } from "./agent-process.js";
import type { Blackboard } from "./blackboard.js";
import { createAgent, goalOfAction } from "./define-agent.js";

/** Options of the {@link agent} class decorator. */
export interface AgentOptions {
  /** The agent's name. @default the class name */
  readonly name?: string;
  /** What the agent does (also the description of a `Subagent` tool for it). */
  readonly description: string;
}

/** Options of the {@link action} method decorator. */
export interface ActionOptions extends ActionSpec {
  /** The action's name. @default the method name */
  readonly name?: string;
}

/** Options of the {@link achievesGoal} method decorator. */
export interface AchievesGoalOptions {
  /** What reaching the goal means. */
  readonly description: string;
  /** @default "<agent name>.<action name>" */
  readonly name?: string;
}

/** Options of the {@link condition} method decorator. */
export interface ConditionOptions {
  /** @default the method name */
  readonly name?: string;
}

interface MemberEntry<O> {
  readonly key: string | object;
  readonly methodName: string;
  readonly get: (target: object) => unknown;
  readonly options: O;
}

const ACTIONS = Symbol.for("embabel-ts.agent-actions");
const GOALS = Symbol.for("embabel-ts.agent-goals");
const CONDITIONS = Symbol.for("embabel-ts.agent-conditions");

type MethodDecorator = (method: (...args: never[]) => unknown, context: ClassMethodDecoratorContext) => void;

function memberDecorator<O>(decorator: string, key: symbol, options: O): MethodDecorator {
  return (_method, context) => {
    if (context.kind !== "method" || context.static) {
      throw new ConfigurationError(
        `@${decorator} applies to instance methods only, not to '${String(context.name)}'.`,
      );
    }
    const metadata = context.metadata as Record<PropertyKey, unknown> | undefined;
    if (!metadata) {
      throw new ConfigurationError(
        `@${decorator} on '${String(context.name)}' received no decorator metadata: compile with TypeScript 5.2+ or esbuild 0.21+ (standard decorators).`,
      );
    }
    const methodName = String(context.name);
    ownMetadataList<MemberEntry<O>>(metadata, key).push({
      key: context.private ? {} : methodName,
      methodName,
      get: context.access.get as (target: object) => unknown,
      options,
    });
  };
}

/**
 * Marks a class as an agent (the specification's `@Agent`), as a TC39
 * standard decorator. Its `@action` methods are the agent's actions, its
 * `@achievesGoal` actions its goals, its `@condition` methods named conditions.
 */
export function agent(options: AgentOptions) {
  return (_target: abstract new (...args: never[]) => unknown, context: ClassDecoratorContext): void => {
    const metadata = context.metadata as Record<PropertyKey, unknown> | undefined;
    if (!metadata) {
      throw new ConfigurationError(
        `@agent on class '${String(context.name)}' received no decorator metadata: compile with TypeScript 5.2+ or esbuild 0.21+ (standard decorators).`,
      );
    }
    recordAgentClass(
      metadata,
      { name: options.name ?? context.name ?? "Agent", description: options.description },
      agentOfInstance,
    );
  };
}

/**
 * Marks a method as an action of an `@agent` class. The method receives its
 * inputs (the latest blackboard object of each `input` type, in order) and
 * the `OperationContext`; its return value is added to the blackboard.
 */
export function action(options: ActionOptions = {}): MethodDecorator {
  return memberDecorator("action", ACTIONS, options);
}

/** Marks an `@action` as reaching a goal: the goal holds once the action ran and its output is on the blackboard. */
export function achievesGoal(options: AchievesGoalOptions): MethodDecorator {
  return memberDecorator("achievesGoal", GOALS, options);
}

/** Marks a method `(blackboard, process) => boolean` as a named condition the planner reads. */
export function condition(options: ConditionOptions = {}): MethodDecorator {
  return memberDecorator("condition", CONDITIONS, options);
}

/**
 * Installs this copy's reader of `@agent` classes for classes decorated by a
 * copy that left none on their metadata. A program that decorates needs it
 * not (`@agent` records its own); the CLI calls it before loading a user's
 * module, whose `embabel-ts` may be another copy. @internal
 */
export function installAgentClassReader(): void {
  useAgentClassReader(agentOfInstance);
}

/** The agent of an instance of an `@agent` class, with its methods bound to the instance. */
function agentOfInstance(instance: object, options: AgentClassOptions): Agent {
  const actionEntries = entries<ActionOptions>(instance, ACTIONS);
  const actions = new Map<string | object, AgentAction>();
  for (const entry of actionEntries) actions.set(entry.key, toAction(instance, entry));
  const goals: AgentGoal[] = entries<AchievesGoalOptions>(instance, GOALS).map((entry) => {
    const target = actions.get(entry.key);
    if (!target) {
      throw new ConfigurationError(
        `@achievesGoal on '${entry.methodName}' of agent '${options.name}' needs @action on the same method.`,
      );
    }
    return goalOfAction(options.name, target, entry.options);
  });
  const conditions: AgentCondition[] = entries<ConditionOptions>(instance, CONDITIONS).map((entry) => {
    const method = entry.get(instance) as (blackboard: Blackboard, process: AgentProcess) => unknown;
    return {
      name: entry.options.name ?? entry.methodName,
      evaluate: (blackboard, process) => method.call(instance, blackboard, process) === true,
    };
  });
  return createAgent(options.name, options.description, [...actions.values()], goals, conditions);
}

function entries<O>(instance: object, key: symbol): MemberEntry<O>[] {
  const byKey = new Map<string | object, MemberEntry<O>>();
  for (const list of metadataListsOf<MemberEntry<O>>(instance, key)) {
    for (const entry of list) byKey.set(entry.key, entry);
  }
  return [...byKey.values()];
}

function toAction(instance: object, entry: MemberEntry<ActionOptions>): AgentAction {
  const method = entry.get(instance) as (...args: unknown[]) => unknown;
  return buildAction(entry.options.name ?? entry.methodName, entry.options, (...args) =>
    method.call(instance, ...args),
  );
}
