import { ConfigurationError } from "../errors/configuration-error.js";
import { Agent } from "../platform/agent.js";
import { AGENT_OPTIONS, type AgentClassOptions } from "../platform/agent-classes.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import { decoratorMetadataOf } from "../tool/decorator-metadata.js";

/**
 * How a subagent tool refers to its agent: by class, by name, as a resolved
 * agent, or as an instance of an `@agent` class. Knows the agent's name and
 * description without any process, and resolves the agent at call time.
 */
export interface AgentReference {
  /** The agent's name (the tool's name). */
  readonly agentName: string;
  /** The agent's description (the tool's description). */
  readonly description: string;
  /** `Subagent(class=…)`, `Subagent(name=…)`, `Subagent(agent=…)`, `Subagent(instance=…)`. */
  readonly label: string;
  /** The agent to run, looked up on `platform` when the reference is a name. */
  resolve(platform: AgentPlatform | undefined): Agent;
}

type AgentClass = abstract new (...args: never[]) => object;

function agentOptionsOf(target: object): AgentClassOptions | undefined {
  return decoratorMetadataOf(target)?.[AGENT_OPTIONS] as AgentClassOptions | undefined;
}

function notFound(
  name: string,
  platform: AgentPlatform | undefined,
  origin: string,
  cause?: unknown,
): ConfigurationError {
  const available = platform ? platform.agents.map((agent) => agent.name).join(", ") : "";
  return new ConfigurationError(
    `Subagent '${name}'${origin} not found in platform ${platform?.name ?? "(none)"}. Available agents: [${available}]`,
    cause === undefined ? undefined : { cause },
  );
}

/** A reference to the agent of an `@agent` class: the deployed one, else one made with `new C()`. */
export function classReference(type: AgentClass): AgentReference {
  const options = typeof type === "function" ? agentOptionsOf(type) : undefined;
  if (!options) {
    throw new ConfigurationError(`Class ${type?.name || "(anonymous)"} must be annotated with @agent`);
  }
  let made: Agent | undefined;
  return {
    agentName: options.name,
    description: options.description,
    label: `Subagent(class=${type.name})`,
    resolve(platform) {
      const deployed = platform?.agent(options.name);
      if (deployed) return deployed;
      try {
        made ??= Agent.fromClass(type as unknown as new () => object);
      } catch (error) {
        throw notFound(options.name, platform, ` (from class ${type.name})`, error);
      }
      return made;
    },
  };
}

/** A reference resolved by name on the platform at call time. */
export function nameReference(name: string): AgentReference {
  if (typeof name !== "string" || name.trim().length === 0) {
    throw new ConfigurationError("Agent name must not be blank");
  }
  return {
    agentName: name,
    description: `Delegate to agent '${name}'`,
    label: `Subagent(name=${name})`,
    resolve(platform) {
      const agent = platform?.agent(name);
      if (!agent) throw notFound(name, platform, "");
      return agent;
    },
  };
}

/** A reference to an agent already built (`defineAgent`, `Agent.of`, `platform.agent(name)`). */
export function agentReference(agent: Agent): AgentReference {
  if (!Agent.isAgent(agent)) {
    throw new ConfigurationError(
      "Subagent.ofInstance needs an Agent (from defineAgent, Agent.of or platform.agent(name)); for an @agent object use Subagent.ofAnnotatedInstance.",
    );
  }
  return {
    agentName: agent.name,
    description: agent.description,
    label: `Subagent(agent=${agent.name})`,
    resolve: () => agent,
  };
}

/** A reference to the agent of an instance of an `@agent` class, bound to that instance. */
export function annotatedInstanceReference(instance: object): AgentReference {
  const options = typeof instance === "object" && instance !== null ? agentOptionsOf(instance) : undefined;
  const className = (instance as { constructor?: { name?: string } } | null)?.constructor?.name || "Object";
  if (!options) throw new ConfigurationError(`Instance of ${className} must be annotated with @agent`);
  let made: Agent | undefined;
  return {
    agentName: options.name,
    description: options.description,
    label: `Subagent(instance=${className})`,
    resolve() {
      made ??= Agent.fromInstance(instance);
      return made;
    },
  };
}
