import { ConfigurationError } from "../errors/configuration-error.js";
import { isBrandedAgent } from "./agent-brand.js";
import { agentFromClass, agentFromInstance, isAgentClass } from "./agent-classes.js";
import type { AgentGoal } from "./agent-goal.js";
import type { Agent as AgentInterface, AgentLike } from "./agent-interface.js";
import { defineAgent } from "./define-agent.js";

export type { AgentAction, AgentCondition, AgentLike } from "./agent-interface.js";
export type { AgentGoal };

/**
 * An agent: a name, a description, actions, goals and conditions; run with
 * `platform.runAgent`. Declared in agent-interface.ts, below the builders;
 * the factories of the same name follow.
 *
 * @interface
 */
export type Agent = AgentInterface;

/** Building and recognising agents. */
export const Agent = {
  /** An agent from a definition (same as {@link defineAgent}). */
  define: defineAgent,
  /** The agent of an `@agent` class, on a new instance (`new C()`). */
  fromClass: agentFromClass,
  /** The agent of an instance of an `@agent` class, bound to that instance. */
  fromInstance: agentFromInstance,
  /** Whether `value` is an `@agent`-decorated class. */
  isAgentClass,
  /** Whether `value` is an instance of an `@agent`-decorated class. */
  isAgentInstance(value: unknown): boolean {
    return typeof value === "object" && value !== null && isAgentClass(value.constructor);
  },
  /** Whether `value` is an {@link Agent} (made by `defineAgent` or from a class). */
  isAgent(value: unknown): value is Agent {
    return isBrandedAgent(value);
  },
  /** The agent for an agent, an `@agent` class or an instance of one; a {@link ConfigurationError} otherwise. */
  of(value: AgentLike): Agent {
    if (Agent.isAgent(value)) return value;
    if (typeof value === "function") return agentFromClass(value as new () => object);
    if (typeof value !== "object" || value === null) {
      throw new ConfigurationError(
        `Expected an agent, an @agent class or an instance of one, got ${value === null ? "null" : typeof value}.`,
      );
    }
    return agentFromInstance(value);
  },
};
