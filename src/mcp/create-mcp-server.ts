import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Agent, AgentLike } from "../platform/agent.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import { AgentTool, type ProcessOptionsCreator } from "../subagent/agent-tool.js";
import type { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolResult } from "../tool/tool-result.js";
import type { TypeToken } from "../tool/type-token.js";
import { elicitWaits, waitingProcessOf } from "./elicit-waits.js";

/** Options of {@link createMcpServer}. */
export interface CreateMcpServerOptions {
  /** The server's name, as MCP clients show it. */
  readonly name: string;
  /** The server's version. @default "0.1.0" */
  readonly version?: string;
  /** Tools to serve, with their definitions. @default [] */
  readonly tools?: readonly Tool[];
  /** The platform whose agents are served (each as a tool taking its input type). */
  readonly platform?: AgentPlatform;
  /** Which agents of `platform` to serve: names or agents. @default every deployed agent */
  readonly agents?: readonly (AgentLike | string)[];
  /** The options each agent run gets. @default quiet, nothing inherited */
  readonly processOptionsCreator?: ProcessOptionsCreator;
  /** Told to clients on connect. */
  readonly instructions?: string;
}

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

function agentTools(options: CreateMcpServerOptions): Tool[] {
  const { platform } = options;
  if (!platform) {
    if (options.agents?.length) {
      throw new ConfigurationError("createMcpServer: 'agents' needs the 'platform' they are deployed on.");
    }
    return [];
  }
  const agents = options.agents ?? platform.agents;
  const creator = options.processOptionsCreator;
  return agents.map((agent) => {
    const resolved = typeof agent === "string" ? platform.agent(agent) : platform.deploy(agent);
    if (!resolved) {
      throw new ConfigurationError(
        `createMcpServer: no agent named '${String(agent)}' is deployed on platform '${platform.name}'. Deployed agents: [${platform.agents.map((candidate) => candidate.name).join(", ")}]`,
      );
    }
    return AgentTool.of(
      platform,
      resolved,
      agentInputType(resolved),
      creator ? { processOptionsCreator: creator } : {},
    );
  });
}

/** A {@link ToolResult} as an MCP result: an error (or a throw) becomes `isError: true` with its message. */
function mcpResultOf(result: ToolResult): CallToolResult {
  const content = [{ type: "text" as const, text: result.content }];
  return result.kind === "error" ? { content, isError: true } : { content };
}

/** The request's `_meta` (without the SDK's progress token) as the call's context. */
function contextOf(meta: Readonly<Record<string, unknown>> | undefined): ToolCallContext {
  if (!meta) return ToolCallContext.EMPTY;
  const { progressToken: _progressToken, ...rest } = meta;
  return ToolCallContext.of(rest);
}

/**
 * An MCP server (the SDK's `McpServer`, to connect to any transport) serving
 * `tools` with their definitions, and each of `platform`'s agents (or the
 * named ones) as a tool taking the agent's input type and returning its
 * result. A `ToolResult.error` or a throw reaches the client as `isError:
 * true` with the message; the request's `_meta` becomes the call's
 * {@link ToolCallContext}; a client's cancellation aborts the call. An agent
 * that waits for a person asks a client that supports elicitation and goes on
 * with its answers; another client gets `isError` naming the process and request.
 */
export function createMcpServer(options: CreateMcpServerOptions): McpServer {
  const tools = [...(options.tools ?? []), ...agentTools(options)];
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    const name = tool.definition.name;
    if (byName.has(name) && byName.get(name) !== tool) {
      throw new ConfigurationError(`createMcpServer: two different tools are named '${name}'.`);
    }
    byName.set(name, tool);
  }
  const server = new McpServer(
    { name: options.name, version: options.version ?? "0.1.0" },
    {
      capabilities: { tools: { listChanged: false } },
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );
  const listing = {
    tools: [...byName.values()].map((tool) => ({
      name: tool.definition.name,
      description: tool.definition.description,
      inputSchema: tool.definition.inputSchema.jsonSchema as { type: "object"; [key: string]: unknown },
    })),
  };
  server.server.setRequestHandler(ListToolsRequestSchema, () => listing);
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return {
        content: [
          {
            type: "text",
            text: `Tool ${request.params.name} not found. Available tools: ${[...byName.keys()].join(", ")}`,
          },
        ],
        isError: true,
      };
    }
    try {
      const result = await tool.call(
        JSON.stringify(request.params.arguments ?? {}),
        contextOf(request.params._meta),
        { signal: extra.signal },
      );
      // An agent waiting for a person: a client that supports elicitation is asked, and the run goes on.
      const waiting = waitingProcessOf(result);
      const platform = waiting?.platform;
      if (waiting && platform && server.server.getClientCapabilities()?.elicitation) {
        return await elicitWaits(server.server, platform, waiting, extra.signal);
      }
      return mcpResultOf(result);
    } catch (error) {
      return {
        content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
        isError: true,
      };
    }
  });
  return server;
}
