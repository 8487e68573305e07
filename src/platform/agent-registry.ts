import { ConfigurationError } from "../errors/configuration-error.js";
import { Agent, type AgentLike } from "./agent.js";

/** The agents deployed on a platform, by name. */
export class AgentRegistry {
  private readonly byName = new Map<string, Agent>();

  /** Deploys an agent, an `@agent` class (instantiated with `new C()`) or an instance of one; names are unique. */
  deploy(agent: AgentLike): Agent {
    const resolved = Agent.of(agent);
    const existing = this.byName.get(resolved.name);
    if (existing && existing !== resolved) {
      throw new ConfigurationError(
        `An agent named '${resolved.name}' is already deployed: deploy each agent once (a class deployed twice makes two instances), or give the other a different name (@agent({ name }) or defineAgent({ name })).`,
      );
    }
    this.byName.set(resolved.name, resolved);
    return resolved;
  }

  /** The agent named `name`, or `undefined`. */
  get(name: string): Agent | undefined {
    return this.byName.get(name);
  }

  /** The agent named `name`; a {@link ConfigurationError} listing the deployed agents otherwise. */
  require(name: string, platformName: string): Agent {
    const agent = this.byName.get(name);
    if (!agent) {
      throw new ConfigurationError(
        `No agent named '${name}' is deployed on platform '${platformName}'. Deployed agents: [${this.names.join(", ")}]`,
      );
    }
    return agent;
  }

  /** The deployed agents, in deployment order. */
  get agents(): readonly Agent[] {
    return [...this.byName.values()];
  }

  /** The deployed agents' names, in deployment order. */
  get names(): readonly string[] {
    return [...this.byName.keys()];
  }
}
