import { InvalidResponseError } from "../errors/invalid-response-error.js";
import { EmbeddingModelRegistry } from "../llm/embedding-model-registry.js";
import type { EmbeddingModelEntry } from "../llm/embedding-model-v2-adapter.js";
import type { ModelIdOptions } from "../llm/model-id.js";
import { type ModelEntry, ModelRegistry } from "../llm/model-registry.js";
import type { ModelPrice, PriceTable } from "../llm/price-table.js";
import { approvalCallbackAuthority } from "../loop/approval-callback-authority.js";
import { checkMaxRetries } from "../loop/model-call-retry.js";
import { PromptRunner } from "../prompt/prompt-runner.js";
import type { PromptRunnerServices } from "../prompt/prompt-runner-services.js";
import type { ToolGroup } from "../prompt/tool-group.js";
import { ToolGroupRegistry } from "../prompt/tool-group-registry.js";
import type { ApprovalCallback } from "../tool/approval-authority.js";
import { Logger } from "../tool/logger.js";
import { Agent, type AgentLike } from "./agent.js";
import type { AgentPlatformApi } from "./agent-platform-api.js";
import type { AgentProcess } from "./agent-process.js";
import { AgentRegistry } from "./agent-registry.js";
import type { AwaitableResponse, RespondOptions } from "./awaitable.js";
import { InProcessRunner } from "./in-process-runner.js";
import type { OperationContext } from "./operation-context.js";
import {
  attachMcp,
  type ConfiguredToolGroup,
  type McpPlatformOptions,
  type PlatformMcp,
  type PlatformMcpClients,
} from "./platform-mcp.js";
import { launchFunction, type RunProcessOptions } from "./process-launcher.js";
import type { ProcessHandle, ProcessRunner } from "./process-runner.js";

/**
 * Options of {@link AgentPlatform.create}: models, roles, tool groups, runner;
 * with the MCP layer, also `mcpServers`, `lazy`, `mcpConfig`, `metaConverter`,
 * `searchableAbove` and `onElicitation`.
 */
export interface AgentPlatformOptions extends ModelIdOptions, McpPlatformOptions {
  /** The platform's name (in logs and events). @default "embabel" */
  readonly name?: string;
  /** Models by name: AI SDK `LanguageModelV3` instances, or ids such as `openai:gpt-4.1` (imported on first use). */
  readonly models: Readonly<Record<string, ModelEntry>>;
  /** Model names by role (`default`, `smart`, `fast`, …). @default { default: <the only model> } when there is one model */
  readonly roles?: Readonly<Record<string, string>>;
  /**
   * Tool groups runners can request by role: `ToolGroup`s, or (with the MCP
   * layer) a config block of roles to `{ description, provider, tools }` over
   * the `mcpServers` (a server tool is included when its name ends with a
   * listed name).
   * @default []
   */
  readonly toolGroups?: Iterable<ToolGroup> | Readonly<Record<string, ToolGroup | ConfiguredToolGroup>>;
  /** Embedding models by name (AI SDK `EmbeddingModelV3` instances; V2 are adapted), used by `OperationContext.embed`. @default {} */
  readonly embeddingModels?: Readonly<Record<string, EmbeddingModelEntry>>;
  /** Embedding model names by role. @default { default: <the only embedding model> } when there is one */
  readonly embeddingRoles?: Readonly<Record<string, string>>;
  /** Prices for cost accounting, merged over the built-in list prices. @default PriceTable.DEFAULT */
  readonly prices?: PriceTable | Readonly<Record<string, ModelPrice>>;
  /** Where `runAgent` runs processes: here, or on queue workers (`BullMqRunner` from `embabel-ts/distributed`). @default new InProcessRunner() */
  readonly runner?: ProcessRunner;
  /** Where the library's warnings go for this platform's processes. @default Logger.default (warnings to stderr) */
  readonly logger?: Logger;
  /** Retries of a failed model call (429, 5xx, a connection reset) for runners and processes that set none. @default 2 */
  readonly maxRetries?: number;
  /**
   * Answers approvals of tool calls made outside any agent process
   * (`platform.ai().withTool(tool).generateText(...)`): gets the tool's name,
   * the validated input and the message; returns `{ approved: true }`,
   * `{ approved: true, input }` or `{ approved: false, reason }`. Inside a
   * process the process waits instead. @default undefined (such a call throws an `ApprovalUnavailableError`)
   */
  readonly onApproval?: ApprovalCallback;
}

/**
 * The entry point: holds the models, their roles and the tool groups, hands
 * out prompt runners (`platform.ai()`), deploys and runs agents. Its MCP
 * servers (`mcpServers`, connected on first use) and config-defined tool
 * groups come from the MCP layer, composed in (see src/platform/platform-mcp.ts);
 * `close()` ends every MCP server it started.
 */
export class AgentPlatform implements AgentPlatformApi {
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

  protected constructor(options: AgentPlatformOptions) {
    this.name = options.name ?? "embabel";
    this.logger = options.logger ?? Logger.default;
    this.models = ModelRegistry.create(options);
    // Sampling servers ask the platform's models, found by role when a request comes.
    const mcp = attachMcp(options, async (role) => {
      const resolved = await this.models.resolveAsync({ role });
      return { model: resolved.model, name: resolved.name };
    });
    this.toolGroups = new ToolGroupRegistry(mcp.toolGroups);
    const inProcess = options.runner instanceof InProcessRunner ? options.runner : new InProcessRunner();
    this.runner = options.runner ?? inProcess;
    this.embeddingModels = options.embeddingModels
      ? EmbeddingModelRegistry.create({
          models: options.embeddingModels,
          ...(options.embeddingRoles ? { roles: options.embeddingRoles } : {}),
        })
      : EmbeddingModelRegistry.EMPTY;
    const models = this.models;
    if (options.maxRetries !== undefined) checkMaxRetries("AgentPlatform's", options.maxRetries);
    const services: PromptRunnerServices = {
      resolveLlm: (llm) => models.resolveLoadedOrAsync(llm),
      toolGroups: this.toolGroups,
      costOf: (call) => models.costOf(call),
      inProcess: (fn) => inShortLivedProcess(this, fn),
      ...(options.onApproval === undefined
        ? {}
        : { approvals: approvalCallbackAuthority(options.onApproval) }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    };
    internals.set(this, { registry: new AgentRegistry(), inProcess, mcp, services });
    mcp.started(this.logger);
  }

  /**
   * A platform with `options`' models, roles and tool groups (models given by
   * id are imported on first use) and MCP servers (connected on first use
   * unless `lazy: false`).
   */
  static create(options: AgentPlatformOptions): AgentPlatform {
    return new AgentPlatform(options);
  }

  /** A prompt runner on the `default` model with no tools. */
  ai(): PromptRunner {
    return PromptRunner.create(internalsOf(this).services);
  }

  /** The MCP servers of `mcpServers` (none connected until a tool is needed; none without `mcpServers`). */
  get mcpClients(): PlatformMcpClients {
    return internalsOf(this).mcp.clients as PlatformMcpClients;
  }

  /** Adds a tool group (a second group with the same role is a configuration error). */
  registerToolGroup(group: ToolGroup): this {
    this.toolGroups.register(group);
    return this;
  }

  // --- agents and processes (platform layer) ---

  /** Deploys an agent, an `@agent` class (instantiated with `new C()`) or an instance of one; returns the agent. */
  deploy(agent: AgentLike): Agent {
    return internalsOf(this).registry.deploy(agent);
  }

  /** The deployed agents, in deployment order. */
  get agents(): readonly Agent[] {
    return internalsOf(this).registry.agents;
  }

  /** The deployed agent named `name`, or `undefined`. */
  agent(name: string): Agent | undefined {
    return internalsOf(this).registry.get(name);
  }

  /**
   * Runs an agent (deployed by name, or given: an agent, an `@agent` class or
   * an instance of one) to the end in a new process, with `input` on the
   * blackboard. Resolves to the finished process: its `status`,
   * `statusReason`, `result`, `blackboard`, history and usage. Rejects only
   * for an unknown agent name (the error lists the deployed agents) or
   * something that is not an agent. With a queue runner, an agent name no
   * worker knows ends the process `failed` saying so.
   */
  runAgent(
    agent: AgentLike | string,
    input?: unknown,
    options: RunProcessOptions = {},
  ): Promise<AgentProcess> {
    const { inProcess } = internalsOf(this);
    const runner = runnerFor(this, options);
    if (runner !== inProcess) return this.startAgent(agent, input, options).then((handle) => handle.result());
    // In this Node process: no handle to build, no extra promise per run.
    try {
      return inProcess.run(target(this, agent, runner), input, options, this);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Starts an agent as {@link AgentPlatform.runAgent} does, resolving as soon
   * as the run is accepted to a handle: its process id at once, the finished
   * process from `handle.result()`. A run with a `parent` (a subagent) always
   * runs in the parent's Node process.
   */
  async startAgent(
    agent: AgentLike | string,
    input?: unknown,
    options: RunProcessOptions = {},
  ): Promise<ProcessHandle> {
    const runner = runnerFor(this, options);
    return runner.start(target(this, agent, runner), input, options, this);
  }

  /** The process with this id as it is now (running or finished), or `undefined` when the runner does not know it. */
  process(id: string): Promise<AgentProcess | undefined> {
    return this.runner.process(id, this);
  }

  /**
   * Answers request `requestId` of the waiting process `processId`:
   * `{ approved: true }`, `{ approved: false, reason }`, `{ approved: true, input }`
   * (edited arguments, checked against the tool's schema), or a form's values
   * (checked against its schema). A bad answer rejects with an
   * `InvalidResponseError` and the process keeps waiting. Once no request is
   * open the process runs on; resolves when it ends or waits again.
   */
  respond(
    processId: string,
    requestId: string,
    response: AwaitableResponse,
    options: RespondOptions = {},
  ): Promise<AgentProcess> {
    const runner = this.runner;
    if (runner.respond === undefined) {
      return Promise.reject(
        new InvalidResponseError(
          `This platform's runner cannot answer waiting processes.`,
          processId,
          requestId,
        ),
      );
    }
    return runner.respond(processId, requestId, response, options, this);
  }

  /** Ends every MCP server the platform started (child processes exit; HTTP sessions end), then closes the runner (a queue runner's connections); the platform runs nothing after. */
  async close(): Promise<void> {
    await internalsOf(this).mcp.clients.close();
    await this.runner.close();
  }

  /** Runs `fn` inside a new process (budget, context, events apply); resolves to the finished process. */
  runInProcess<T>(
    fn: (context: OperationContext) => T | Promise<T>,
    options: RunProcessOptions = {},
  ): Promise<AgentProcess> {
    return launchFunction(fn, options, { ai: () => this.ai(), platform: this });
  }
}

/**
 * What a platform keeps to itself. Held here rather than as private members,
 * so an AgentPlatform's type is exactly its public face (AgentPlatformApi,
 * which `process.platform` is declared as) and either passes for the other.
 */
interface PlatformInternals {
  readonly registry: AgentRegistry;
  /** The platform's own in-process runner (also `runner` unless another was given). */
  readonly inProcess: InProcessRunner;
  readonly mcp: PlatformMcp;
  /** What every runner of this platform uses (models, tool groups, prices). */
  readonly services: PromptRunnerServices;
}

const internals = new WeakMap<AgentPlatform, PlatformInternals>();

function internalsOf(platform: AgentPlatform): PlatformInternals {
  return internals.get(platform) as PlatformInternals;
}

/** Where a run goes: a subagent stays in its parent's Node process. */
function runnerFor(platform: AgentPlatform, options: RunProcessOptions): ProcessRunner {
  return options.parent ? internalsOf(platform).inProcess : platform.runner;
}

/** The agent to run: an agent, or a name (one the runner's workers may know, for a queue runner). */
function target(platform: AgentPlatform, agent: AgentLike | string, runner: ProcessRunner): Agent | string {
  if (typeof agent !== "string") return Agent.of(agent);
  const { registry, inProcess } = internalsOf(platform);
  return runner === inProcess ? registry.require(agent, platform.name) : (registry.get(agent) ?? agent);
}

/**
 * Runs `fn` in a short-lived process and resolves to its value: how tools
 * that need a process (agentic tools) work when a runner of this platform
 * calls them outside any process. A process that does not complete rejects
 * with its failure.
 */
async function inShortLivedProcess<T>(platform: AgentPlatform, fn: () => Promise<T>): Promise<T> {
  let value: T | undefined;
  const process = await platform.runInProcess(async () => {
    value = await fn();
  });
  if (process.status === "completed") return value as T;
  throw (
    process.failure ??
    new Error(`The short-lived process ${process.id} ended ${process.status}: ${process.statusReason ?? ""}`)
  );
}

/** Same as {@link AgentPlatform.create}. */
export function createAgentPlatform(options: AgentPlatformOptions): AgentPlatform {
  return AgentPlatform.create(options);
}
