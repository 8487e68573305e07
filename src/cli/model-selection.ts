import { ConfigurationError } from "../errors/configuration-error.js";
import type { ConfiguredModel, EmbabelConfig } from "./cli-config.js";

/** The model ids the CLI hands to the platform, and a one-line description for the banner. */
export interface ModelSelection {
  /** Model names to model ids. */
  readonly models: Readonly<Record<string, string>>;
  /** Roles to model names; always has `default`. */
  readonly roles: Readonly<Record<string, string>>;
  /** The configured models by name, with their base URL / key variable. */
  readonly configured: Readonly<Record<string, ConfiguredModel>>;
  /** Where the default model came from, for the banner (`--model`, `EMBABEL_MODEL`, the config file…). */
  readonly source: string;
}

/** The environment variables the CLI reads. */
export type CliEnvironment = Readonly<Record<string, string | undefined>>;

interface ProviderInfo {
  /** The variable holding the key, or `undefined` when the provider needs none. */
  readonly keyEnv: string | undefined;
  /** The model used when only the key is set. */
  readonly defaultModel: string;
}

/** Providers the CLI knows how to pre-flight, by the prefix of a model id. */
const PROVIDERS: Readonly<Record<string, ProviderInfo>> = {
  openai: { keyEnv: "OPENAI_API_KEY", defaultModel: "openai:gpt-4.1" },
  anthropic: { keyEnv: "ANTHROPIC_API_KEY", defaultModel: "anthropic:claude-sonnet-4-5" },
  ollama: { keyEnv: undefined, defaultModel: "ollama:qwen2.5" },
  "openai-compatible": { keyEnv: undefined, defaultModel: "openai-compatible:default" },
};

/** What to tell a user who has configured nothing. */
export const NO_PROVIDER_MESSAGE = [
  "No LLM provider is configured. Set one of these and run again:",
  "  export OPENAI_API_KEY=sk-...          # uses openai:gpt-4.1",
  "  export ANTHROPIC_API_KEY=sk-ant-...   # uses anthropic:claude-sonnet-4-5",
  "  export OLLAMA_BASE_URL=http://localhost:11434   # uses ollama:qwen2.5",
  "Pick another model with EMBABEL_MODEL=<provider>:<model> or --model, or put models in embabel.config.json.",
  "To see the example work offline on its recorded script, add --scripted.",
].join("\n");

/**
 * Chooses the models for a run: `--model` first, then the config file, then
 * `EMBABEL_MODEL`, then whichever provider key is set. Throws a
 * {@link ConfigurationError} that names the variable to set when nothing is
 * configured or a chosen model's key is missing.
 */
export function selectModels(
  config: EmbabelConfig,
  env: CliEnvironment,
  override: string | undefined,
): ModelSelection {
  const configured: Record<string, ConfiguredModel> = { ...config.models };
  const roles: Record<string, string> = { ...config.roles };
  let source: string;
  if (override !== undefined) {
    configured.default = { ...configured.default, id: override };
    roles.default = "default";
    source = "--model";
  } else if (Object.keys(configured).length > 0) {
    const names = Object.keys(configured);
    if (roles.default === undefined) {
      if (configured.default) roles.default = "default";
      else if (names.length === 1) roles.default = names[0] as string;
      else {
        throw new ConfigurationError(
          `The config file lists several models ([${names.join(", ")}]) but no "roles": { "default": "<model name>" }.`,
        );
      }
    }
    source = "config file";
  } else {
    const fromEnv = env.EMBABEL_MODEL?.trim() || inferFromKeys(env);
    if (!fromEnv) throw new ConfigurationError(NO_PROVIDER_MESSAGE);
    configured.default = { id: fromEnv };
    roles.default = "default";
    source = env.EMBABEL_MODEL?.trim() ? "EMBABEL_MODEL" : "the API key in the environment";
  }
  const models: Record<string, string> = {};
  for (const [name, model] of Object.entries(configured)) {
    checkModel(name, model, env);
    models[name] = model.id;
  }
  for (const [role, name] of Object.entries(roles)) {
    if (!(name in models)) {
      checkModel(role, { id: name }, env);
      models[name] = name;
    }
  }
  return { models, roles, configured, source };
}

function inferFromKeys(env: CliEnvironment): string | undefined {
  if (env.OPENAI_API_KEY) return PROVIDERS.openai?.defaultModel;
  if (env.ANTHROPIC_API_KEY) return PROVIDERS.anthropic?.defaultModel;
  if (env.OLLAMA_BASE_URL) return PROVIDERS.ollama?.defaultModel;
  return undefined;
}

function checkModel(name: string, model: ConfiguredModel, env: CliEnvironment): void {
  const separator = model.id.indexOf(":");
  const provider = separator > 0 ? model.id.slice(0, separator) : "";
  const info = PROVIDERS[provider];
  if (separator <= 0 || separator === model.id.length - 1) {
    throw new ConfigurationError(
      `Model '${name}' has id '${model.id}': write it as <provider>:<model>, e.g. openai:gpt-4.1 (providers: ${Object.keys(PROVIDERS).join(", ")}).`,
    );
  }
  if (info === undefined) {
    throw new ConfigurationError(
      `Model '${model.id}' uses unknown provider '${provider}'. Known providers: ${Object.keys(PROVIDERS).join(", ")}.`,
    );
  }
  if (provider === "openai-compatible" && !model.baseURL) {
    throw new ConfigurationError(
      `Model '${model.id}' needs a baseURL: give it in embabel.config.json as { "id": "${model.id}", "baseURL": "http://..." }.`,
    );
  }
  const keyEnv = model.apiKeyEnv ?? (model.baseURL ? undefined : info.keyEnv);
  if (keyEnv !== undefined && !env[keyEnv]) {
    throw new ConfigurationError(
      `Model ${model.id} needs ${keyEnv}. Set it (export ${keyEnv}=...) and run again, or add --scripted to run offline.`,
    );
  }
}
