import type { Agent } from "../platform/agent.js";
import { type TypeLike, type TypeOf, TypeToken } from "../tool/type-token.js";
import {
  type AgentReference,
  agentReference,
  annotatedInstanceReference,
  classReference,
  nameReference,
} from "./agent-reference.js";
import { SubagentTool } from "./subagent-tool.js";

/** The first half of a subagent: the agent is chosen; `consuming(T)` names what the LLM provides. */
export interface SubagentBuilder {
  /** The subagent tool, whose input is `inputType` (its JSON Schema is what the LLM sees). */
  consuming<L extends TypeLike>(inputType: L): SubagentTool<TypeOf<L>>;
}

function builder(reference: AgentReference): SubagentBuilder {
  return {
    consuming<L extends TypeLike>(inputType: L): SubagentTool<TypeOf<L>> {
      return new SubagentTool(reference, TypeToken.of(inputType) as TypeToken<TypeOf<L>>);
    },
  };
}

/** A tool that delegates to another agent (see {@link SubagentTool}). */
export type Subagent<T = unknown> = SubagentTool<T>;

/**
 * The specification's `Subagent` builders: choose the agent, then the input
 * type. `Subagent.ofClass(PerformanceFinder).consuming(WorksToFind)`.
 */
export const Subagent = {
  /** The agent of an `@agent` class: the one deployed under its name, else a new instance's. */
  ofClass(agentClass: abstract new (...args: never[]) => object): SubagentBuilder {
    return builder(classReference(agentClass));
  },
  /** The agent deployed under `name`, looked up on the platform at call time. */
  byName(name: string): SubagentBuilder {
    return builder(nameReference(name));
  },
  /** An agent already built (`defineAgent`, `Agent.of`, `platform.agent(name)`). */
  ofInstance(agent: Agent): SubagentBuilder {
    return builder(agentReference(agent));
  },
  /** The agent of an instance of an `@agent` class (with its own dependencies). */
  ofAnnotatedInstance(instance: object): SubagentBuilder {
    return builder(annotatedInstanceReference(instance));
  },
};
