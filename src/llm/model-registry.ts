import type { LanguageModelV2, LanguageModelV3 } from "@ai-sdk/provider";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { LlmCallSettings, LlmUsage } from "../loop/tool-loop.js";
import { asLanguageModelV3 } from "./language-model-v2-adapter.js";
import { LlmOptions, type LlmOptionsInit } from "./llm-options.js";
import { type ModelIdOptions, modelFromId } from "./model-id.js";
import { type ModelPrice, PriceTable } from "./price-table.js";

/** A model: an AI SDK instance (V3, or V2 adapted), or an id such as `openai:gpt-4.1` loaded on first use. */
export type ModelEntry = LanguageModelV3 | LanguageModelV2 | string;

/** Input of {@link ModelRegistry.create}. */
export interface ModelRegistryOptions extends ModelIdOptions {
  /** Models by name. */
  readonly models: Readonly<Record<string, ModelEntry>>;
  /** Roles (`default`, `smart`, `fast`, …) to model names. @default { default: <the only model> } when there is one model */
  readonly roles?: Readonly<Record<string, string>>;
  /** Prices for cost accounting. @default PriceTable.DEFAULT */
  readonly prices?: PriceTable | Readonly<Record<string, ModelPrice>>;
}

/** The model chosen for an interaction, with its sampling settings. */
export interface ResolvedLlm {
  readonly model: LanguageModelV3;
  /** The registry's name for the model. */
  readonly name: string;
  readonly settings: LlmCallSettings;
}

/**
 * Names models and maps roles to them, then resolves {@link LlmOptions} to a
 * model: a model name wins, else the role (default `default`). Id entries are
 * imported on first use ({@link ModelRegistry.load} loads them all up front so
 * {@link ModelRegistry.resolve} can stay synchronous).
 */
export class ModelRegistry {
  /** The prices used by {@link ModelRegistry.costOf}. */
  readonly prices: PriceTable;
  private readonly models = new Map<string, LanguageModelV3 | string>();
  private readonly roles: Readonly<Record<string, string>>;

  private constructor(private readonly options: ModelRegistryOptions) {
    for (const [name, entry] of Object.entries(options.models)) {
      this.models.set(name, typeof entry === "string" ? entry : asLanguageModelV3(entry));
    }
    const roles: Record<string, string> = { ...options.roles };
    const names = [...this.models.keys()];
    if (roles.default === undefined && names.length === 1) roles.default = names[0] as string;
    for (const [role, name] of Object.entries(roles)) {
      if (!this.models.has(name) && !isModelId(name)) {
        throw new ConfigurationError(
          `Role '${role}' maps to unknown model '${name}'. Known models: [${names.join(", ")}]`,
        );
      }
    }
    this.roles = roles;
    this.prices =
      options.prices instanceof PriceTable ? options.prices : PriceTable.DEFAULT.with(options.prices ?? {});
  }

  /** A registry over `options.models` and `options.roles`; nothing is imported yet. */
  static create(options: ModelRegistryOptions): ModelRegistry {
    return new ModelRegistry(options);
  }

  /** A registry whose id entries are all loaded. */
  static async load(options: ModelRegistryOptions): Promise<ModelRegistry> {
    return ModelRegistry.create(options).load();
  }

  /** The model names, in registration order. */
  get modelNames(): string[] {
    return [...this.models.keys()];
  }

  /** The role → model name map (with the implicit `default` when there is one model). */
  get roleMap(): Readonly<Record<string, string>> {
    return this.roles;
  }

  /** Imports every model given by id (missing packages and keys fail here, by name). */
  async load(): Promise<this> {
    for (const [name, entry] of this.models) {
      if (typeof entry === "string") this.models.set(name, await modelFromId(entry, this.options));
    }
    return this;
  }

  /** The model for `options`; a model given by id must have been loaded (see {@link ModelRegistry.resolveAsync}). */
  resolve(options?: LlmOptions | LlmOptionsInit): ResolvedLlm {
    const llm = LlmOptions.of(options);
    const name = this.nameFor(llm);
    const entry = this.models.get(name);
    if (entry === undefined || typeof entry === "string") {
      throw new ConfigurationError(
        `Model '${name}' is given by id '${entry ?? name}' and is not loaded yet: await registry.load() (or use resolveAsync) first.`,
      );
    }
    return { model: entry, name, settings: llm.toSettings() };
  }

  /** The model for `options` now when it is loaded, else a promise of it (imported first when given by id); an unknown model or role throws its `ConfigurationError` at once, as {@link ModelRegistry.resolve} does. */
  resolveLoadedOrAsync(options?: LlmOptions | LlmOptionsInit): ResolvedLlm | Promise<ResolvedLlm> {
    const llm = LlmOptions.of(options);
    const entry = this.models.get(this.nameFor(llm));
    return entry === undefined || typeof entry === "string" ? this.resolveAsync(llm) : this.resolve(llm);
  }

  /** The model for `options`, importing it first when it is given by id (also accepts an id as the model name). */
  async resolveAsync(options?: LlmOptions | LlmOptionsInit): Promise<ResolvedLlm> {
    const llm = LlmOptions.of(options);
    const name = this.nameFor(llm);
    const entry = this.models.get(name) ?? name;
    if (typeof entry === "string") this.models.set(name, await modelFromId(entry, this.options));
    return this.resolve(llm);
  }

  /** Cost in US dollars of one call, when the model's price is known. */
  costOf(call: { readonly modelId: string; readonly usage: LlmUsage }): number | undefined {
    return this.prices.costOf(call.usage, call.modelId);
  }

  private nameFor(llm: LlmOptions): string {
    if (llm.model !== undefined) {
      if (this.models.has(llm.model) || isModelId(llm.model)) return llm.model;
      throw new ConfigurationError(
        `Unknown model '${llm.model}'. Known models: [${this.modelNames.join(", ")}]`,
      );
    }
    const role = llm.role ?? "default";
    const name = this.roles[role];
    if (name === undefined) {
      throw new ConfigurationError(
        `No model for role '${role}': map it with roles: { ${role}: "<model name>" }. Known roles: [${Object.keys(this.roles).join(", ")}]`,
      );
    }
    return name;
  }
}

function isModelId(name: string): boolean {
  return /^(openai|anthropic|ollama|openai-compatible):./.test(name);
}
