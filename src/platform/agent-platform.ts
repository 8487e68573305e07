import { EmbeddingModelRegistry } from "../llm/embedding-model-registry.js";
import type { EmbeddingModelEntry } from "../llm/embedding-model-v2-adapter.js";
import type { ModelIdOptions } from "../llm/model-id.js";
import { type ModelEntry, ModelRegistry } from "../llm/model-registry.js";
import type { ModelPrice, PriceTable } from "../llm/price-table.js";
import { PromptRunner } from "../prompt/prompt-runner.js";
import type { PromptRunnerServices } from "../prompt/prompt-runner-services.js";
import type { ToolGroup } from "../prompt/tool-group.js";
import { ToolGroupRegistry } from "../prompt/tool-group-registry.js";
import { Agent, type AgentLike } from "./agent.js";
import type { AgentProcess } from "./agent-process.js";
import { AgentRegistry } from "./agent-registry.js";
import type { OperationContext } from "./operation-context.js";
import { launchAgent, launchFunction, type RunProcessOptions } from "./process-launcher.js";

/** Options of {@link AgentPlatform.create}. */
export interface AgentPlatformOptions extends ModelIdOptions {
  /** The platform's name (in logs and events). @default "embabel" */
  readonly name?: string;
  /** Models by name: AI SDK `LanguageModelV3` instances, or ids such as `openai:gpt-4.1` (imported on first use). */
  readonly models: Readonly<Record<string, ModelEntry>>;
  /** Model names by role (`default`, `smart`, `fast`, …). @default { default: <the only model> } when there is one model */
  readonly roles?: Readonly<Record<string, string>>;
  /** The tool groups runners can request by role. @default [] */
  readonly toolGroups?: Iterable<ToolGroup>;
  /** Embedding models by name (AI SDK `EmbeddingModelV3` instances; V2 are adapted), used by `OperationContext.embed`. @default {} */
  readonly embeddingModels?: Readonly<Record<string, EmbeddingModelEntry>>;
  /** Embedding model names by role. @default { default: <the only embedding model> } when there is one */
  readonly embeddingRoles?: Readonly<Record<string, string>>;
  /** Prices for cost accounting, merged over the built-in list prices. @default PriceTable.DEFAULT */
  readonly prices?: PriceTable | Readonly<Record<string, ModelPrice>>;
}

/**
 * The entry point: holds the models, their roles and the tool groups, and
 * hands out prompt runners (`platform.ai()`). The platform layer adds agent
 * deployment and processes to this class.
 */
export class AgentPlatform {
  /** The platform's name. */
  readonly name: string;
  /** The models and roles; resolves `LlmOptions` to a model. */
  readonly models: ModelRegistry;
  /** The tool groups runners can request by role; more can be registered. */
  readonly toolGroups: ToolGroupRegistry;
  /** The embedding models and their roles. */
  readonly embeddingModels: EmbeddingModelRegistry;
  /** What every runner of this platform uses (models, tool groups, prices). */
  protected readonly services: PromptRunnerServices;
  private readonly registry = new AgentRegistry();

  protected constructor(options: AgentPlatformOptions) {
    this.name = options.name ?? "embabel";
    this.models = ModelRegistry.create(options);
    this.toolGroups = new ToolGroupRegistry(options.toolGroups ?? []);
    this.embeddingModels = options.embeddingModels
      ? EmbeddingModelRegistry.create({
          models: options.embeddingModels,
          ...(options.embeddingRoles ? { roles: options.embeddingRoles } : {}),
        })
      : EmbeddingModelRegistry.EMPTY;
    const models = this.models;
    this.services = {
      resolveLlm: (llm) => models.resolveAsync(llm),
      toolGroups: this.toolGroups,
      costOf: (call) => models.costOf(call),
    };
  }

  /** A platform with `options`' models, roles and tool groups (models given by id are imported on first use). */
  static create(options: AgentPlatformOptions): AgentPlatform {
    return new AgentPlatform(options);
  }

  /** A prompt runner on the `default` model with no tools. */
  ai(): PromptRunner {
    return PromptRunner.create(this.services);
  }

  /** Adds a tool group (a second group with the same role is a configuration error). */
  registerToolGroup(group: ToolGroup): this {
    this.toolGroups.register(group);
    return this;
  }

  // --- agents and processes (platform layer) ---

  /** Deploys an agent, an `@agent` class (instantiated with `new C()`) or an instance of one; returns the agent. */
  deploy(agent: AgentLike): Agent {
    return this.registry.deploy(agent);
  }

  /** The deployed agents, in deployment order. */
  get agents(): readonly Agent[] {
    return this.registry.agents;
  }

  /** The deployed agent named `name`, or `undefined`. */
  agent(name: string): Agent | undefined {
    return this.registry.get(name);
  }

  /**
   * Runs an agent (deployed by name, or given: an agent, an `@agent` class or
   * an instance of one) to the end in a new process, with `input` on the
   * blackboard. Resolves to the finished process: its `status`,
   * `statusReason`, `result`, `blackboard`, history and usage. Rejects only
   * for an unknown agent name (the error lists the deployed agents) or
   * something that is not an agent.
   */
  async runAgent(
    agent: AgentLike | string,
    input?: unknown,
    options: RunProcessOptions = {},
  ): Promise<AgentProcess> {
    const resolved = typeof agent === "string" ? this.registry.require(agent, this.name) : Agent.of(agent);
    return launchAgent(resolved, input, options, { ai: () => this.ai(), platform: this });
  }

  /** Runs `fn` inside a new process (budget, context, events apply); resolves to the finished process. */
  runInProcess<T>(
    fn: (context: OperationContext) => T | Promise<T>,
    options: RunProcessOptions = {},
  ): Promise<AgentProcess> {
    return launchFunction(fn, options, { ai: () => this.ai(), platform: this });
  }
}

/** Same as {@link AgentPlatform.create}. */
export function createAgentPlatform(options: AgentPlatformOptions): AgentPlatform {
  return AgentPlatform.create(options);
}
