import { ConfigurationError } from "../errors/configuration-error.js";
import { parseModelId } from "../llm/model-id.js";
import type { ConfiguredModel, EmbabelConfig } from "./cli-config.js";
import { UsageError } from "./usage-error.js";

/** The model ids the CLI hands to the platform, and where the default came from. */
export interface ModelSelection {
  /** Model names to model ids (`openai:gpt-4.1`, `openai-compatible:<model>@<baseURL>`). */
  readonly models: Readonly<Record<string, string>>;
  /** Roles to model names; always has `default`. */
  readonly roles: Readonly<Record<string, string>>;
  /** Where the default model came from, for the banner (`--model`, `EMBABEL_MODEL`, the config file…). */
  readonly source: string;
}

/** The environment variables the CLI reads. */
export type CliEnvironment = Readonly<Record<string, string | undefined>>;

/** The variable each provider's key is read from (providers without a key are absent). */
const KEY_VARIABLES: Readonly<Record<string, string>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
};

/** What to tell a user who has configured nothing. */
export const NO_PROVIDER_MESSAGE = [
  "No LLM provider is configured. Set one of these and run again:",
  "  export OPENAI_API_KEY=sk-...                      # uses openai:gpt-4.1",
  "  export ANTHROPIC_API_KEY=sk-ant-...               # uses anthropic:claude-sonnet-4-5",
  "  export OLLAMA_BASE_URL=http://127.0.0.1:11434/v1  # uses ollama:qwen2.5",
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
    configured.default = { id: override };
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
    const fromEnv = env.EMBABEL_MODEL?.trim();
    const inferred = fromEnv || inferFromKeys(env);
    if (!inferred) throw new ConfigurationError(NO_PROVIDER_MESSAGE);
    configured.default = { id: inferred };
    roles.default = "default";
    source = fromEnv ? "EMBABEL_MODEL" : inferredSource(env);
  }
  const models: Record<string, string> = {};
  const defaultName = roles.default as string;
  if (!(defaultName in configured)) configured[defaultName] = { id: defaultName };
  for (const [name, model] of Object.entries(configured)) {
    const from =
      name === defaultName && source !== "config file" ? source : `the config file's model '${name}'`;
    models[name] = checkedId(model, env, name === defaultName, from);
  }
  return { models, roles, source };
}

/**
 * The id parsed, or an error saying where the id came from, without the
 * library's hint about passing a model instance (a CLI user can't); a bad
 * `--model` is a mistake on the command line.
 */
function parsedModelId(id: string, from: string): ReturnType<typeof parseModelId> {
  try {
    return parseModelId(id);
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    const message = `${error.message.replace(/, or pass a LanguageModelV3 instance\./, ".")} (from ${from})`;
    throw from === "--model" ? new UsageError(message) : new ConfigurationError(message);
  }
}

/** Where an inferred model came from, as the CLI says it: an API key, or Ollama's base URL. */
function inferredSource(env: CliEnvironment): string {
  if (env.OPENAI_API_KEY) return "OPENAI_API_KEY in the environment";
  if (env.ANTHROPIC_API_KEY) return "ANTHROPIC_API_KEY in the environment";
  return "the Ollama base URL in the environment (OLLAMA_BASE_URL)";
}

function inferFromKeys(env: CliEnvironment): string | undefined {
  if (env.OPENAI_API_KEY) return "openai:gpt-4.1";
  if (env.ANTHROPIC_API_KEY) return "anthropic:claude-sonnet-4-5";
  if (env.OLLAMA_BASE_URL) return "ollama:qwen2.5";
  return undefined;
}

/**
 * The id to load (with a separate baseURL folded in), after checking its form
 * and, for the default model, its key (other models load on first use and
 * report a missing key then).
 */
function checkedId(model: ConfiguredModel, env: CliEnvironment, checkKey: boolean, from: string): string {
  const id =
    model.baseURL && model.id.startsWith("openai-compatible:") && !model.id.includes("@")
      ? `${model.id}@${model.baseURL}`
      : model.id;
  const parsed = parsedModelId(id, from);
  const variable = KEY_VARIABLES[parsed.provider];
  if (checkKey && variable !== undefined && !env[variable]) {
    throw new ConfigurationError(
      `Model ${id} needs ${variable}. Set it (export ${variable}=...) and run again, or add --scripted to run offline.`,
    );
  }
  return id;
}
