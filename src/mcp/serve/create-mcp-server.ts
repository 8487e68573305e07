import {
  type CallToolResult,
  type LoggingLevel,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { withSpan } from "../../loop/loop-telemetry.js";
import type { AgentLike } from "../../platform/agent.js";
import type { AgentPlatform } from "../../platform/agent-platform.js";
import type { ProcessOptionsCreator } from "../../subagent/agent-tool.js";
import type { Tool } from "../../tool/tool.js";
import { ToolCallContext } from "../../tool/tool-call-context.js";
import { endMcpSpan, startMcpServerSpan } from "../mcp-trace-context.js";
import { type McpNonceStore, processNonceStore } from "./mcp-nonce-store.js";
import { McpServerCall, type McpServerCallTarget } from "./mcp-server-call.js";
import { agentTools } from "./served-agents.js";
import { RESPOND_TOOL_NAME, servedApprovals } from "./served-approvals.js";
import { remember, type ServedWaits, serveGated, waitingPlatforms } from "./served-gated-call.js";
import { type McpServerPrompt, servePrompts } from "./served-prompts.js";
import { callTarget, inputRequiredOf, PROCESS_SECRET, requestStateCodec } from "./served-request-state.js";
import { type McpServerResource, serveResources } from "./served-resources.js";
import { RESPOND_TOOL_LISTING, respondToRequest } from "./served-respond-tool.js";
import { type McpServerTasksOptions, serveTaskMethods, TASKS_EXTENSION } from "./served-tasks.js";
import { servedTasks, startedAsTask } from "./task-call.js";

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
  /**
   * The platform that answers waiting agent processes this server did not
   * start itself (`mcp-serve --redis`: a run started through another server
   * process, its checkpoint in Redis). @default `platform`
   */
  readonly waitsOn?: AgentPlatform;
  /**
   * Offer the tool `respond_to_request`, with which a client that cannot show
   * an elicitation form answers an approval (or an agent's request) later.
   * `false` leaves such calls answerable only by elicitation (or in code);
   * `true` offers it even when nothing seems to wait (agents served as plain `tools`).
   * @default true when a served tool needs approval or a platform is given, else false
   */
  readonly respondTool?: boolean;
  /**
   * The secret (at least 32 bytes) that signs the state a served call hands
   * the client between rounds (MCP 2026-07-28 `requestState`, see
   * `McpServerCall.requireInput`). Give every server process behind one
   * endpoint the same secret, so a retry may reach any of them.
   * @default a random secret of this process
   */
  readonly requestStateSecret?: string;
  /**
   * Where the answered rounds of MCP 2026-07-28 `input_required` (approvals,
   * agents' waits) are marked used, so a replayed answer is not used twice.
   * Give every server process behind one endpoint the same store
   * (`RedisMcpNonceStore` from `embabel-ts/distributed`).
   * @default this process's memory (single use within this process)
   */
  readonly nonceStore?: McpNonceStore;
  /**
   * How long lists and resource reads may be cached by clients (MCP
   * 2026-07-28 `ttlMs`), and whether a shared cache may keep them
   * (`cacheScope`). @default 0 ms, "private"
   */
  readonly cacheHint?: { readonly ttlMs: number; readonly cacheScope?: "public" | "private" };
  /**
   * Long-running calls served as tasks (MCP 2026-07-28, the tasks extension):
   * the client is answered at once with a task it polls, answers and can
   * cancel. Served agents run as tasks by default, when the client declares
   * the extension; name long-running tools in `tasks.tools`. `false`: no
   * tasks (every call is answered in the request). @default agents as tasks when a `platform` is given
   */
  readonly tasks?: McpServerTasksOptions | false;
}

// Kept importable from here (the CLI and the lazy entry points load them from this module).
export { agentInputType, servedAgentTool } from "./served-agents.js";
export { callTarget, inputRequiredOf, isModernRequest } from "./served-request-state.js";

/**
 * The SDK's `McpServer` with the input schemas of our own `tools/list`: the
 * SDK's HTTP entry reads a tool's schema here to check its `Mcp-Param-*`
 * headers (MCP 2026-07-28, SEP-2243) before the call runs.
 */
class ServedMcpServer extends McpServer {
  schemaOf: (name: string) => Record<string, unknown> | undefined = () => undefined;

  override toolInputSchemaJson(name: string): Record<string, unknown> | undefined {
    return this.schemaOf(name);
  }
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
  const agents = agentTools(options);
  const tools = [...(options.tools ?? []), ...agents];
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
  const codec = requestStateCodec(options.requestStateSecret ?? PROCESS_SECRET);
  const tasks = servedTasks(options.tasks, options.platform !== undefined, byName);
  const agentNames = new Set(agents.map((agent) => agent.definition.name));
  const server = new ServedMcpServer(
    { name: options.name, version: options.version ?? "0.1.0" },
    {
      capabilities: {
        tools: { listChanged: false },
        logging: {},
        completions: {},
        ...(resources.length > 0 ? { resources: { subscribe: true, listChanged: false } } : {}),
        ...(prompts.length > 0 ? { prompts: { listChanged: false } } : {}),
        ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
      },
      ...(options.instructions ? { instructions: options.instructions } : {}),
      requestState: { verify: (state, ctx) => codec.verify(state, ctx) },
      ...(options.cacheHint ? { cacheHints: cacheHintsOf(options.cacheHint) } : {}),
    },
  );
  // A client without elicitation answers later with the respond tool: offered when something can wait.
  const canWait =
    options.platform !== undefined ||
    options.waitsOn !== undefined ||
    tools.some((tool) => tool.metadata.approval !== undefined);
  const respondTool = options.respondTool ?? canWait;
  if (respondTool && byName.has(RESPOND_TOOL_NAME)) {
    throw new ConfigurationError(
      `createMcpServer: a served tool is named '${RESPOND_TOOL_NAME}', the name of the tool that answers approvals. Rename it, or pass respondTool: false.`,
    );
  }
  const listing = {
    tools: [
      ...[...byName.values()].map((tool) => ({
        name: tool.definition.name,
        description: tool.definition.description,
        inputSchema: tool.definition.inputSchema.jsonSchema as { type: "object"; [key: string]: unknown },
      })),
      ...(respondTool ? [RESPOND_TOOL_LISTING] : []),
    ],
  };
  server.schemaOf = (name) =>
    listing.tools.find((each) => each.name === name)?.inputSchema as Record<string, unknown> | undefined;
  // One McpServer serves one client (a stdio peer or one HTTP session), so one level is that client's.
  let minimumLevel: LoggingLevel = "debug";
  server.server.setRequestHandler("logging/setLevel", (request) => {
    minimumLevel = request.params.level;
    return {};
  });
  const resourceCompleter = resources.length > 0 ? serveResources(server.server, resources) : () => undefined;
  const promptCompleter =
    prompts.length > 0
      ? servePrompts(server.server, prompts, async (ctx, name, body) => {
          const subject = `prompt:${name}`;
          const target = callTarget(server, ctx, subject, () => minimumLevel);
          return McpServerCall.run(target, async () => {
            const result = await body();
            const call = McpServerCall.current() as McpServerCall;
            return (await inputRequiredOf(call, subject, codec, ctx)) ?? result;
          });
        })
      : () => undefined;
  server.server.setRequestHandler("completion/complete", async (request) => {
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
  server.server.setRequestHandler("tools/list", () => listing);
  if (tasks) serveTaskMethods(server, tasks);
  const waitsOn = options.waitsOn ?? options.platform;
  const waits: ServedWaits = {
    nonces: options.nonceStore ?? processNonceStore,
    platformOf: (processId) => waitingPlatforms.get(processId) ?? waitsOn,
    remember,
  };
  server.server.setRequestHandler("tools/call", async (request, ctx): Promise<CallToolResult> => {
    const subject = `tool:${request.params.name}`;
    const site = callTarget(server, ctx, subject, () => minimumLevel);
    if (respondTool && request.params.name === RESPOND_TOOL_NAME) {
      return McpServerCall.run(site, () =>
        respondToRequest(request.params.arguments ?? {}, site, {
          store: servedApprovals,
          platformOf: waits.platformOf,
          elicitation: !site.modern && Boolean(server.server.getClientCapabilities()?.elicitation),
        }),
      );
    }
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool ${request.params.name} not found. Available tools: ${[...listing.tools.map((each) => each.name)].join(", ")}`,
      );
    }
    const args = request.params.arguments ?? {};
    const context = contextOf(ctx.mcpReq._meta);
    const serve = (at: McpServerCallTarget): Promise<CallToolResult> =>
      McpServerCall.run(at, async () => {
        const result = await serveGated(tool, args, context, at, serve, waits);
        const call = McpServerCall.current() as McpServerCall;
        return (await inputRequiredOf(call, subject, codec, ctx)) ?? result;
      });
    const task = startedAsTask(tasks, server, ctx, site, {
      name: request.params.name,
      agent: agentNames.has(request.params.name),
      arguments: args,
      platformOf: waits.platformOf,
      round: (at) =>
        McpServerCall.run(at, async () => {
          const result = await serveGated(tool, args, context, at, serve, waits);
          const required = McpServerCall.current()?.inputRequirement;
          return required ? { input: required } : { result };
        }),
    });
    if (task) return task;
    // Continues the client's trace (its _meta traceparent) when an OpenTelemetry SDK is registered.
    const span = startMcpServerSpan(request.params.name, ctx.mcpReq._meta);
    if (!span.isRecording()) return serve(site);
    return withSpan(span, () => serve(site)).then((result) => {
      endMcpSpan(span, result);
      return result;
    });
  });
  return server;
}

/** The SDK's per-operation cache hints for `hint`. */
function cacheHintsOf(hint: NonNullable<CreateMcpServerOptions["cacheHint"]>) {
  if (!Number.isInteger(hint.ttlMs) || hint.ttlMs < 0) {
    throw new ConfigurationError(
      `createMcpServer: cacheHint.ttlMs must be a whole number of milliseconds, 0 or more; got ${hint.ttlMs}.`,
    );
  }
  const each = { ttlMs: hint.ttlMs, cacheScope: hint.cacheScope ?? "private" } as const;
  return {
    "tools/list": each,
    "prompts/list": each,
    "resources/list": each,
    "resources/templates/list": each,
    "resources/read": each,
  };
}
