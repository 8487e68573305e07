import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { ConfigurationError } from "../errors/configuration-error.js";
import { asEmbeddingModelV3, type EmbeddingModelEntry } from "./embedding-model-v2-adapter.js";

/** Input of {@link EmbeddingModelRegistry.create}. */
export interface EmbeddingModelRegistryOptions {
  /** Embedding models by name: AI SDK `EmbeddingModelV3` instances (V2 models are adapted). */
  readonly models: Readonly<Record<string, EmbeddingModelEntry>>;
  /** Roles (`default`, `fast`, …) to model names. @default { default: <the only model> } when there is one model */
  readonly roles?: Readonly<Record<string, string>>;
}

/** Which embedding model to use: a model name wins, else the role. */
export interface EmbeddingModelChoice {
  /** The registry's name of the model. @default the model of `role` */
  readonly model?: string;
  /** The role whose model to use. @default "default" */
  readonly role?: string;
}

/** The embedding model chosen for a call. */
export interface ResolvedEmbeddingModel {
  readonly model: EmbeddingModelV3;
  /** The registry's name for the model. */
  readonly name: string;
}

/**
 * Names embedding models and maps roles to them, as {@link ModelRegistry}
 * does for language models.
 */
export class EmbeddingModelRegistry {
  /** A registry with no embedding models. */
  static readonly EMPTY = new EmbeddingModelRegistry({ models: {} });

  private readonly models: ReadonlyMap<string, EmbeddingModelV3>;
  private readonly roles: Readonly<Record<string, string>>;

  private constructor(options: EmbeddingModelRegistryOptions) {
    const models = new Map<string, EmbeddingModelV3>();
    for (const [name, model] of Object.entries(options.models)) {
      if (!isEmbeddingModel(model)) {
        throw new ConfigurationError(
          `Embedding model '${name}' is not an AI SDK EmbeddingModelV3 (specificationVersion 'v3' with doEmbed).`,
        );
      }
      models.set(name, asEmbeddingModelV3(model));
    }
    const roles: Record<string, string> = { ...options.roles };
    const names = [...models.keys()];
    if (roles.default === undefined && names.length === 1) roles.default = names[0] as string;
    for (const [role, name] of Object.entries(roles)) {
      if (!models.has(name)) {
        throw new ConfigurationError(
          `Embedding role '${role}' maps to unknown embedding model '${name}'. Known embedding models: [${names.join(", ")}]`,
        );
      }
    }
    this.models = models;
    this.roles = roles;
  }

  /** A registry over `options.models` and `options.roles`. */
  static create(options: EmbeddingModelRegistryOptions): EmbeddingModelRegistry {
    return new EmbeddingModelRegistry(options);
  }

  /** The model names, in registration order. */
  get modelNames(): string[] {
    return [...this.models.keys()];
  }

  /** The role → model name map (with the implicit `default` when there is one model). */
  get roleMap(): Readonly<Record<string, string>> {
    return this.roles;
  }

  /** The model for `choice`; an unknown name or role is a `ConfigurationError` listing what is known. */
  resolve(choice: EmbeddingModelChoice = {}): ResolvedEmbeddingModel {
    if (this.models.size === 0) {
      throw new ConfigurationError(
        "No embedding model configured: pass embeddingModels: { default: <AI SDK EmbeddingModelV3> } to AgentPlatform.create.",
      );
    }
    if (choice.model !== undefined) {
      const model = this.models.get(choice.model);
      if (!model) {
        throw new ConfigurationError(
          `Unknown embedding model '${choice.model}'. Known embedding models: [${this.modelNames.join(", ")}]`,
        );
      }
      return { model, name: choice.model };
    }
    const role = choice.role ?? "default";
    const name = this.roles[role];
    if (name === undefined) {
      throw new ConfigurationError(
        `No embedding model for role '${role}': map it with embeddingRoles: { ${role}: "<model name>" }. Known roles: [${Object.keys(this.roles).join(", ")}]`,
      );
    }
    return { model: this.models.get(name) as EmbeddingModelV3, name };
  }
}

function isEmbeddingModel(value: unknown): value is EmbeddingModelEntry {
  if (typeof value !== "object" || value === null) return false;
  const model = value as Partial<EmbeddingModelEntry>;
  return (
    (model.specificationVersion === "v3" || model.specificationVersion === "v2") &&
    typeof model.doEmbed === "function"
  );
}
