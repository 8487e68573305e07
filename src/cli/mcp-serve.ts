import { ConfigurationError } from "../errors/configuration-error.js";
import { isLoopbackHost } from "../mcp/mcp-http-guard.js";
import { agentInputType, createMcpServer, servedAgentTool } from "../mcp/serve/create-mcp-server.js";
import type { McpNonceStore } from "../mcp/serve/mcp-nonce-store.js";
import { serveMcpOverHttp } from "../mcp/serve/serve-mcp-over-http.js";
import { serveMcpOverStdio } from "../mcp/serve/serve-mcp-over-stdio.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { AgentTool } from "../subagent/agent-tool.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import type { McpServeCommand } from "./cli-commands.js";
import { type EmbabelConfig, loadConfig } from "./cli-config.js";
import type { CliEnvironmentOptions } from "./cli-environment.js";
import { servedExamples } from "./example-catalog.js";
import type { ExampleDefinition } from "./example-definition.js";
import { EXIT_OK } from "./exit-status.js";
import { mcpPlatformOptions } from "./mcp-setup.js";
import { packageVersion } from "./package-version.js";
import { configuredModels } from "./run-example.js";
import { servedAgentExtras } from "./served-agent-extras.js";
import { UsageError } from "./usage-error.js";
import { hasRecordedScript, MODULE_SHAPE } from "./user-module.js";

/** The server's name when it serves the built-in examples (a module's agents are served under the module's name). */
const EXAMPLES_SERVER_NAME = "embabel-ts-examples";

type AgentClass = Parameters<AgentPlatform["deploy"]>[0];

/**
 * One example's agent as a tool that runs each call on a fresh platform with
 * the example's recorded script (a script is consumed as it replays).
 */
function scriptedAgentTool(
  example: ExampleDefinition,
  config: EmbabelConfig,
  env: CliEnvironmentOptions["env"],
): Tool {
  const platformFor = (model: ScriptedModel) =>
    AgentPlatform.create({
      name: "embabel-ts-mcp-serve",
      models: { default: model },
      ...mcpPlatformOptions(config, [example], env),
    });
  const template = platformFor(new ScriptedModel());
  const agent = template.deploy(example.agents[0] as AgentClass);
  const definitionTool = AgentTool.of(template, agent, agentInputType(agent));
  const { name, description, inputSchema } = definitionTool.definition;
  return Tool.of(name, description, inputSchema, definitionTool.metadata, async (input, context, options) => {
    const platform = platformFor(new ScriptedModel(example.script()));
    try {
      const deployed = platform.deploy(example.agents[0] as AgentClass);
      // Not gated here: this tool keeps the agent tool's schema and metadata, and the MCP server gates the call to it.
      return await servedAgentTool(platform, deployed).call(input, context, options);
    } finally {
      await platform.close();
    }
  });
}

/** Waits until the signal aborts (Ctrl-C) or, when given, `stream` ends. */
function untilStopped(signal: AbortSignal | undefined, stream?: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener("abort", () => resolve(), { once: true });
    stream?.once("end", () => resolve());
    stream?.once("close", () => resolve());
  });
}

/**
 * `embabel-ts mcp-serve`: serves the example agents (each as a tool taking
 * its input type) over stdio, or over Streamable HTTP on 127.0.0.1 with
 * `--http <port>` (with sessions unless `--stateless`), until the client
 * disconnects or Ctrl-C; each agent's description is also a prompt and its
 * last result a resource. With `--scripted` the agents replay their recorded scripts.
 */
export async function serveExamplesOverMcp(
  command: McpServeCommand,
  options: CliEnvironmentOptions,
): Promise<number> {
  const { terminal, env } = options;
  const token = command.token ?? (env.EMBABEL_MCP_TOKEN || undefined);
  const host = command.host ?? "127.0.0.1";
  if (!isLoopbackHost(host) && token === undefined) {
    throw new ConfigurationError(
      `mcp-serve --host ${host} would let anyone on the network run the agents: give a token with --token <t> or EMBABEL_MCP_TOKEN (clients send it as 'Authorization: Bearer <t>'), or leave --host out to listen on 127.0.0.1.`,
    );
  }
  const loaded = loadConfig(options.cwd, command.config);
  // A module path serves that module's agents, under the module's (package's) name.
  const served = await servedExamples(command.module, options.cwd);
  const { examples } = served;
  const serverName = served.name ?? EXAMPLES_SERVER_NAME;
  if (command.scripted) {
    const unscripted = examples.filter((example) => !hasRecordedScript(example));
    if (unscripted.length > 0) {
      throw new UsageError(
        `--scripted replays recorded replies, and ${command.module} exports ${unscripted.map((example) => `'${example.name}'`).join(", ")} without an 'example' that has a script: serve it on a model (without --scripted), or export one.\n${MODULE_SHAPE}`,
      );
    }
  }
  let shared: AgentPlatform | undefined;
  let nonces: (McpNonceStore & { close(): Promise<void> }) | undefined;
  let tools: Tool[] = [];
  if (command.redis !== undefined) {
    // Runs go to the workers; a run that waits stays in Redis, answerable through any server process.
    const { BullMqRunner } = await import("../distributed/bullmq-runner.js");
    const runner = await BullMqRunner.create({
      connection: command.redis,
      ...(command.queue === undefined ? {} : { queue: command.queue }),
    });
    shared = AgentPlatform.create({ name: "embabel-ts-mcp-serve", models: {}, runner });
    // An answer to a 2026-07-28 input_required is used once across every server process on this Redis.
    const { RedisMcpNonceStore } = await import("../distributed/redis-mcp-nonce-store.js");
    nonces = await RedisMcpNonceStore.create({ connection: command.redis });
    for (const example of examples) shared.deploy(example.agents[0] as AgentClass);
  } else if (command.scripted) {
    tools = examples.map((example) => scriptedAgentTool(example, loaded.config, env));
  } else {
    const models = await configuredModels(loaded.config, options, command);
    shared = AgentPlatform.create({
      name: "embabel-ts-mcp-serve",
      models: models.models,
      roles: models.roles,
      ...mcpPlatformOptions(loaded.config, examples, env),
    });
    for (const example of examples) shared.deploy(example.agents[0] as AgentClass);
  }
  const platform = shared;
  if (platform) tools = platform.agents.map((agent) => servedAgentTool(platform, agent));
  // Each agent's description as a prompt, its last result as a resource (shared by every session).
  const extras = servedAgentExtras(tools);
  // Each agent runs as a task for a 2026-07-28 client that declares the tasks extension.
  const tasks = {
    tools: Object.fromEntries(tools.map((tool) => [tool.definition.name, "optional" as const])),
  };
  const create = () =>
    createMcpServer({
      name: serverName,
      version: packageVersion(),
      tools: extras.tools,
      prompts: extras.prompts,
      resources: extras.resources,
      // A client without elicitation answers an agent's wait with `respond_to_request`.
      respondTool: true,
      tasks,
      // Processes behind one endpoint share it, so a 2026-07-28 retry may reach any of them.
      ...(env.EMBABEL_MCP_STATE_SECRET ? { requestStateSecret: env.EMBABEL_MCP_STATE_SECRET } : {}),
      ...(platform ? { waitsOn: platform } : {}),
      ...(nonces ? { nonceStore: nonces } : {}),
    });
  try {
    if (command.httpPort !== undefined) {
      const endpoint = await serveMcpOverHttp(create, {
        port: command.httpPort,
        host,
        ...(token === undefined ? {} : { token }),
        ...(command.allowedOrigins ? { allowedOrigins: command.allowedOrigins } : {}),
        ...(command.allowedHosts ? { allowedHosts: command.allowedHosts } : {}),
        sessions: command.stateless ? "stateless" : "stateful",
        ...(command.maxSessions === undefined ? {} : { maxSessions: command.maxSessions }),
        ...(command.sessionIdleMs === undefined ? {} : { sessionIdleMs: command.sessionIdleMs }),
      });
      terminal.out(
        `MCP server listening on ${endpoint.url}${token === undefined ? "" : " (bearer token required)"} (Ctrl-C to stop)`,
      );
      await untilStopped(options.signal);
      await endpoint.close();
    } else {
      const endpoint = await serveMcpOverStdio(create);
      terminal.err(`${serverName}: serving over stdio`);
      await Promise.race([untilStopped(options.signal, process.stdin), endpoint.closed]);
      await endpoint.close();
    }
  } finally {
    await platform?.close();
    await nonces?.close();
  }
  return EXIT_OK;
}
