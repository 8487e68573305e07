import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type LoggingLevel,
  McpError,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { withSpan } from "../loop/loop-telemetry.js";
import type { Agent, AgentLike } from "../platform/agent.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import { AgentTool, ENTRY_POINT_OPTIONS, type ProcessOptionsCreator } from "../subagent/agent-tool.js";
import type { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import type { TypeToken } from "../tool/type-token.js";
import { elicitWaits, waitingProcessOf } from "./elicit-waits.js";
import { McpServerCall } from "./mcp-server-call.js";
import { endMcpSpan, startMcpServerSpan } from "./mcp-trace-context.js";
import { servedProcessOptions } from "./served-process-options.js";
import { type McpServerPrompt, servePrompts } from "./served-prompts.js";
import { type McpServerResource, serveResources } from "./served-resources.js";
import { servedToolResult } from "./served-tool-result.js";

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
  /** Resources and resource templates clients can list and read. @default [] */
  readonly resources?: readonly McpServerResource[];
  /** Prompt templates clients can list and get. @default [] */
  readonly prompts?: readonly McpServerPrompt[];
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

/**
 * `agent` (deployed on `platform`) as the tool {@link createMcpServer} serves:
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

function agentTools(options: CreateMcpServerOptions): Tool[] {
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

/** The request's `_meta` (without the SDK's progress token) as the call's context. */
function contextOf(meta: Readonly<Record<string, unknown>> | undefined): ToolCallContext {
  if (!meta) return ToolCallContext.EMPTY;
  const { progressToken: _progressToken, ...rest } = meta;
  return ToolCallContext.of(rest);
}

/**
 * An MCP server (the SDK's `McpServer`, to connect to any transport) serving
 * `tools` with their definitions, each of `platform`'s agents (or the named
 * ones) as a tool taking the agent's input type and returning its result, and
 * the `resources` and `prompts` given, with completion of their arguments and
 * logging. A `ToolResult.error` or a throw reaches the client as `isError:
 * true` with the message; an unknown tool name is the JSON-RPC error -32602;
 * a {@link ToolContent} artifact becomes image, audio or resource content
 * after the text. The request's `_meta` becomes the call's
 * {@link ToolCallContext}; a client's cancellation aborts the call; while a
 * tool runs, `McpServerCall.current()` sends progress (when the client sent a
 * progress token) and log messages, and asks the client for a form or a model
 * completion; an agent's progress, log lines and action starts are sent the same
 * way. An agent that waits for a person asks a client that supports elicitation
 * and goes on with its answers; another client gets `isError` naming the
 * process and request.
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
  const resources = options.resources ?? [];
  const prompts = options.prompts ?? [];
  const server = new McpServer(
    { name: options.name, version: options.version ?? "0.1.0" },
    {
      capabilities: {
        tools: { listChanged: false },
        logging: {},
        completions: {},
        ...(resources.length > 0 ? { resources: { subscribe: true, listChanged: false } } : {}),
        ...(prompts.length > 0 ? { prompts: { listChanged: false } } : {}),
      },
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
  // One McpServer serves one client (a stdio peer or one HTTP session), so one level is that client's.
  let minimumLevel: LoggingLevel = "debug";
  server.server.setRequestHandler(SetLevelRequestSchema, (request) => {
    minimumLevel = request.params.level;
    return {};
  });
  const resourceCompleter = resources.length > 0 ? serveResources(server.server, resources) : () => undefined;
  const promptCompleter = prompts.length > 0 ? servePrompts(server.server, prompts) : () => undefined;
  server.server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument, context } = request.params;
    const completer =
      ref.type === "ref/prompt"
        ? promptCompleter(ref.name, argument.name)
        : resourceCompleter(ref.uri, argument.name);
    const values = completer ? [...(await completer(argument.value, context?.arguments ?? {}))] : [];
    return {
      completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 },
    };
  });
  server.server.setRequestHandler(ListToolsRequestSchema, () => listing);
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Tool ${request.params.name} not found. Available tools: ${[...byName.keys()].join(", ")}`,
      );
    }
    const target = {
      server: server.server,
      requestId: extra.requestId,
      progressToken: request.params._meta?.progressToken,
      signal: extra.signal,
      sendNotification: extra.sendNotification as (notification: {
        method: string;
        params?: Record<string, unknown>;
      }) => Promise<void>,
      minimumLevel: () => minimumLevel,
      ...(extra.closeSSEStream ? { closeStream: extra.closeSSEStream } : {}),
    };
    const served = () =>
      McpServerCall.run<CallToolResult>(target, async () => {
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
          return servedToolResult(result);
        } catch (error) {
          return {
            content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
            isError: true,
          };
        }
      });
    // Continues the client's trace (its _meta traceparent) when an OpenTelemetry SDK is registered.
    const span = startMcpServerSpan(request.params.name, request.params._meta);
    if (!span.isRecording()) return served();
    return withSpan(span, served).then((result) => {
      endMcpSpan(span, result);
      return result;
    });
  });
  return server;
}
