import { ConfigurationError } from "../../errors/configuration-error.js";
import type { Agent, AgentLike } from "../../platform/agent.js";
import type { AgentPlatform } from "../../platform/agent-platform.js";
import { AgentTool, ENTRY_POINT_OPTIONS, type ProcessOptionsCreator } from "../../subagent/agent-tool.js";
import type { Tool } from "../../tool/tool.js";
import type { TypeToken } from "../../tool/type-token.js";
import { McpServerCall } from "./mcp-server-call.js";
import { servedProcessOptions } from "./served-process-options.js";

// A platform's agents as the tools an MCP server serves.

/**
 * The input type of `agent`: the first input of its actions that no action
 * produces (what the caller must put on the blackboard).
 */
export function agentInputType(agent: Agent): TypeToken {
  const produced = new Set(agent.actions.flatMap((action) => (action.output ? [action.output.name] : [])));
  for (const action of agent.actions) {
    const input = action.inputs.find((type) => !produced.has(type.name));
    if (input) return input;
  }
  throw new ConfigurationError(
    `Agent '${agent.name}' cannot be served as a tool: none of its actions takes an input that another action does not produce.`,
  );
}

/**
 * `agent` (deployed on `platform`) as the tool `createMcpServer` serves:
 * an {@link AgentTool} whose runs also send their progress, log lines and
 * action starts to the MCP client of the call that started them.
 */
export function servedAgentTool(
  platform: AgentPlatform,
  agent: Agent,
  processOptionsCreator?: ProcessOptionsCreator,
): Tool {
  const base = processOptionsCreator ?? (() => ENTRY_POINT_OPTIONS);
  const creator: ProcessOptionsCreator = (parent) =>
    servedProcessOptions(base(parent), McpServerCall.current());
  return AgentTool.of(platform, agent, agentInputType(agent), { processOptionsCreator: creator });
}

/** The agents a server serves, as tools: `options.agents` of `options.platform` (every deployed one by default). */
export function agentTools(options: {
  readonly platform?: AgentPlatform;
  readonly agents?: readonly (AgentLike | string)[];
  readonly processOptionsCreator?: ProcessOptionsCreator;
}): Tool[] {
  const { platform } = options;
  if (!platform) {
    if (options.agents?.length) {
      throw new ConfigurationError("createMcpServer: 'agents' needs the 'platform' they are deployed on.");
    }
    return [];
  }
  const agents = options.agents ?? platform.agents;
  return agents.map((agent) => {
    const resolved = typeof agent === "string" ? platform.agent(agent) : platform.deploy(agent);
    if (!resolved) {
      throw new ConfigurationError(
        `createMcpServer: no agent named '${String(agent)}' is deployed on platform '${platform.name}'. Deployed agents: [${platform.agents.map((candidate) => candidate.name).join(", ")}]`,
      );
    }
    return servedAgentTool(platform, resolved, options.processOptionsCreator);
  });
}
