// What an AgentPlatform offers, as an interface below the process: a process
// records the platform running it (`process.platform`), and the platform's
// class, which launches processes, sits above everything that names the
// process. The class implements this, so the two cannot drift apart.
import type { EmbeddingModelRegistry } from "../llm/embedding-model-registry.js";
import type { ModelRegistry } from "../llm/model-registry.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import type { ToolGroup } from "../prompt/tool-group.js";
import type { ToolGroupRegistry } from "../prompt/tool-group-registry.js";
import type { Logger } from "../tool/logger.js";
import type { Agent, AgentLike } from "./agent-interface.js";
import type { AgentProcess } from "./agent-process.js";
import type { AwaitableResponse, RespondOptions } from "./awaitable.js";
import type { OperationContext } from "./operation-context.js";
import type { PlatformMcpClients } from "./platform-mcp.js";
import type { ProcessHandle, ProcessRunner, RunProcessOptions } from "./process-runner.js";

/**
 * The public face of an `AgentPlatform` (which implements it): what the code
 * inside a process reaches through `process.platform`, and what runners are
 * handed. Every member is documented on `AgentPlatform`.
 */
export interface AgentPlatformApi {
  /** The platform's name. */
  readonly name: string;
  /** The models and roles; resolves `LlmOptions` to a model. */
  readonly models: ModelRegistry;
  /** The tool groups runners can request by role; more can be registered. */
  readonly toolGroups: ToolGroupRegistry;
  /** The embedding models and their roles. */
  readonly embeddingModels: EmbeddingModelRegistry;
  /** Where `runAgent` runs processes. */
  readonly runner: ProcessRunner;
  /** Where the library's warnings go inside this platform's processes. */
  readonly logger: Logger;
  /** The MCP servers of `mcpServers` (none connected until a tool is needed). */
  readonly mcpClients: PlatformMcpClients;
  /** The deployed agents, in deployment order. */
  readonly agents: readonly Agent[];
  /** A prompt runner on the `default` model with no tools. */
  ai(): PromptRunner;
  /** Adds a tool group (a second group with the same role is a configuration error). */
  registerToolGroup(group: ToolGroup): this;
  /** Deploys an agent, an `@agent` class or an instance of one; returns the agent. */
  deploy(agent: AgentLike): Agent;
  /** The deployed agent named `name`, or `undefined`. */
  agent(name: string): Agent | undefined;
  /** Runs an agent to the end in a new process; resolves to the finished process. */
  runAgent(agent: AgentLike | string, input?: unknown, options?: RunProcessOptions): Promise<AgentProcess>;
  /** Starts an agent, resolving as soon as the run is accepted to a handle. */
  startAgent(agent: AgentLike | string, input?: unknown, options?: RunProcessOptions): Promise<ProcessHandle>;
  /** The process with this id as it is now, or `undefined` when the runner does not know it. */
  process(id: string): Promise<AgentProcess | undefined>;
  /** Answers request `requestId` of the waiting process `processId`; resolves when it ends or waits again. */
  respond(
    processId: string,
    requestId: string,
    response: AwaitableResponse,
    options?: RespondOptions,
  ): Promise<AgentProcess>;
  /** Ends every MCP server the platform started, then closes the runner. */
  close(): Promise<void>;
  /** Runs `fn` inside a new process; resolves to the finished process. */
  runInProcess<T>(
    fn: (context: OperationContext) => T | Promise<T>,
    options?: RunProcessOptions,
  ): Promise<AgentProcess>;
}
