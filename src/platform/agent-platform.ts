import type { LanguageModelV3 } from "@ai-sdk/provider";
import { ConfigurationError } from "../errors/configuration-error.js";
import { PromptRunner } from "../prompt/prompt-runner.js";
import type { LlmOptions, PromptRunnerServices, ResolvedLlm } from "../prompt/prompt-runner-services.js";
import type { ToolGroup } from "../prompt/tool-group.js";
import { ToolGroupRegistry } from "../prompt/tool-group-registry.js";

/** Options of {@link AgentPlatform.create}. */
export interface AgentPlatformOptions {
  /** The platform's name (in logs and events). @default "embabel" */
  readonly name?: string;
  /** Models by name: AI SDK `LanguageModelV3` instances, or ids such as `openai:gpt-4.1`. */
  readonly models: Readonly<Record<string, LanguageModelV3 | string>>;
  /** Model names by role (`default`, `smart`, `fast`, …). @default { default: <the only model> } when there is one model */
  readonly roles?: Readonly<Record<string, string>>;
  /** The tool groups runners can request by role. @default [] */
  readonly toolGroups?: Iterable<ToolGroup>;
  /** Prices per model name or id, for cost accounting. @default {} */
  readonly prices?: Readonly<Record<string, unknown>>;
}

/**
 * The entry point: holds the models, their roles and the tool groups, and
 * hands out prompt runners (`platform.ai()`). The platform layer adds agent
 * deployment and processes to this class.
 */
export class AgentPlatform {
  /** The platform's name. */
  readonly name: string;
  /** The tool groups runners can request by role; more can be registered. */
  readonly toolGroups: ToolGroupRegistry;
  private readonly services: PromptRunnerServices;

  protected constructor(options: AgentPlatformOptions) {
    this.name = options.name ?? "embabel";
    this.toolGroups = new ToolGroupRegistry(options.toolGroups ?? []);
    const resolveLlm = modelResolver(options);
    this.services = { resolveLlm, toolGroups: this.toolGroups };
  }

  /** A platform with `options`' models, roles and tool groups. */
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
}

/** Same as {@link AgentPlatform.create}. */
export function createAgentPlatform(options: AgentPlatformOptions): AgentPlatform {
  return AgentPlatform.create(options);
}

// Interim model resolution until the llm layer's ModelRegistry lands.
function modelResolver(options: AgentPlatformOptions): (llm: LlmOptions | undefined) => ResolvedLlm {
  const names = Object.keys(options.models);
  const roles: Record<string, string> = { ...options.roles };
  if (roles.default === undefined && names.length === 1) roles.default = names[0] as string;
  return (llm) => {
    const selection = (llm ?? {}) as { model?: string; role?: string };
    const role = selection.role ?? "default";
    const name = selection.model ?? roles[role];
    if (name === undefined) {
      throw new ConfigurationError(
        `No model for role '${role}': map it in AgentPlatform.create({ roles: { ${role}: "<model name>" } }). Known roles: [${Object.keys(roles).join(", ")}]`,
      );
    }
    const model = options.models[name];
    if (model === undefined || typeof model === "string") {
      throw new ConfigurationError(`Unknown model '${name}'. Known models: [${names.join(", ")}]`);
    }
    return { model, name };
  };
}
