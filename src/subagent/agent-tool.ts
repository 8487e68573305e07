import { ConfigurationError } from "../errors/configuration-error.js";
import { Agent, type AgentLike } from "../platform/agent.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import { AgentProcess } from "../platform/agent-process.js";
import { ProcessOptions } from "../platform/process-options.js";
import { Verbosity } from "../platform/verbosity.js";
import { type TypeLike, type TypeOf, TypeToken } from "../tool/type-token.js";
import { EntryPointTool } from "./entry-point.js";
import { toolNameFor } from "./tool-input.js";

/** Makes the options of one run of an entry-point tool, given the process it is called in (if any). */
export type ProcessOptionsCreator = (parent: AgentProcess | undefined) => ProcessOptions;

/** Options of {@link AgentTool}. */
export interface AgentToolOptions {
  /** The options of each run. @default prompt-showing verbosity, nothing inherited */
  readonly processOptionsCreator?: ProcessOptionsCreator;
}

/** The options an entry point runs with by default: `showPrompts` on, nothing inherited. */
export const ENTRY_POINT_OPTIONS: ProcessOptions = ProcessOptions.DEFAULT.withVerbosity(
  new Verbosity().withShowPrompts(true),
);

/**
 * An agent as a tool for the outside world (an MCP server, a chat, another
 * framework): an entry point, not a handoff. Each call parses the input and
 * runs the agent as a new top-level process, with prompt-showing verbosity
 * unless a `processOptionsCreator` says otherwise; nothing is inherited from a
 * calling process, though the call's `ToolCallContext` (a caller's tenant or
 * token) reaches the run's tools. Bad input is answered with
 * `BAD INPUT ERROR parsing tool input: …`; the result comes back as text.
 */
export class AgentTool<T = unknown> extends EntryPointTool<T> {
  /** The agent the tool runs. */
  readonly agent: Agent;
  private readonly processOptionsCreator: ProcessOptionsCreator;

  constructor(
    platform: AgentPlatform,
    agent: AgentLike | string,
    inputType: TypeToken<T>,
    options: AgentToolOptions = {},
  ) {
    const resolved = typeof agent === "string" ? requireAgent(platform, agent) : Agent.of(agent);
    super(platform, toolNameFor(resolved.name, "agent"), resolved.description, inputType);
    this.agent = resolved;
    this.processOptionsCreator = options.processOptionsCreator ?? (() => ENTRY_POINT_OPTIONS);
  }

  /** `AgentTool.of(platform, agent, inputType, options?)`. */
  static of<L extends TypeLike>(
    platform: AgentPlatform,
    agent: AgentLike | string,
    inputType: L,
    options?: AgentToolOptions,
  ): AgentTool<TypeOf<L>> {
    return new AgentTool(platform, agent, TypeToken.of(inputType) as TypeToken<TypeOf<L>>, options);
  }

  protected runOptions(): ProcessOptions {
    return this.processOptionsCreator(AgentProcess.current());
  }

  protected runAgent(): Agent {
    return this.agent;
  }

  /** A short description, for logs. */
  override toString(): string {
    return `AgentTool(${this.agent.name})`;
  }
}

function requireAgent(platform: AgentPlatform, name: string): Agent {
  const agent = platform.agent(name);
  if (!agent) {
    throw new ConfigurationError(
      `No agent named '${name}' is deployed on platform '${platform.name}'. Deployed agents: [${platform.agents.map((candidate) => candidate.name).join(", ")}]`,
    );
  }
  return agent;
}
