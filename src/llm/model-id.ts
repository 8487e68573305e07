import type { LanguageModelV3 } from "@ai-sdk/provider";
import { ConfigurationError } from "../errors/configuration-error.js";

/** Where {@link modelFromId} reads keys and base URLs, and how it imports provider packages. */
export interface ModelIdOptions {
  /** Environment variables. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Imports a provider package (tests replace it). @default dynamic `import()` */
  readonly importModule?: (specifier: string) => Promise<unknown>;
}

/** A parsed model id (`openai:gpt-4.1`, `openai-compatible:<model>@<baseURL>`). */
export interface ParsedModelId {
  readonly provider: "openai" | "anthropic" | "ollama" | "openai-compatible";
  readonly modelId: string;
  /** Base URL, for `openai-compatible`. */
  readonly baseURL?: string;
}

const PROVIDERS = ["openai", "anthropic", "ollama", "openai-compatible"] as const;

const PACKAGES = {
  openai: { name: "@ai-sdk/openai", version: "3" },
  anthropic: { name: "@ai-sdk/anthropic", version: "3" },
  "openai-compatible": { name: "@ai-sdk/openai-compatible", version: "2" },
} as const;

/** The default base URL of a local Ollama server's OpenAI-compatible API. */
export const DEFAULT_OLLAMA_BASE_URL = "http://127.0.0.1:11434/v1";

/** Parses a model id; an id this library cannot resolve is a {@link ConfigurationError} listing the accepted forms. */
export function parseModelId(id: string): ParsedModelId {
  const colon = id.indexOf(":");
  const provider = colon > 0 ? id.slice(0, colon) : "";
  const rest = colon > 0 ? id.slice(colon + 1) : "";
  if (!PROVIDERS.includes(provider as ParsedModelId["provider"]) || rest === "") {
    throw new ConfigurationError(
      `Unknown model id '${id}'. Use 'openai:<model>', 'anthropic:<model>', 'ollama:<model>' or 'openai-compatible:<model>@<baseURL>', or pass a LanguageModelV3 instance.`,
    );
  }
  if (provider === "openai-compatible") {
    const at = rest.indexOf("@");
    if (at <= 0 || at === rest.length - 1) {
      throw new ConfigurationError(
        `Model id '${id}' needs a base URL: 'openai-compatible:<model>@<baseURL>', for example 'openai-compatible:llama3@http://127.0.0.1:8080/v1'.`,
      );
    }
    return { provider, modelId: rest.slice(0, at), baseURL: rest.slice(at + 1) };
  }
  return { provider: provider as ParsedModelId["provider"], modelId: rest };
}

async function loadPackage(
  pkg: { readonly name: string; readonly version: string },
  id: string,
  importModule: (specifier: string) => Promise<unknown>,
): Promise<Record<string, unknown>> {
  try {
    return (await importModule(pkg.name)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new ConfigurationError(
        `Model '${id}' needs the provider package ${pkg.name}, which is not installed. Install it: npm i ${pkg.name}@${pkg.version}`,
        { cause: error },
      );
    }
    throw error;
  }
}

function requireKey(env: ModelIdOptions["env"], variable: string, id: string): string {
  const key = env?.[variable];
  if (!key) {
    throw new ConfigurationError(`Model '${id}' needs an API key: set the environment variable ${variable}.`);
  }
  return key;
}

type Factory = (settings: Record<string, unknown>) => (modelId: string) => LanguageModelV3;

/**
 * The AI SDK model an id names, through the provider package (an optional
 * peer, imported on first use). A missing package or key is a
 * {@link ConfigurationError} saying exactly what to install or set. `ollama`
 * goes through `@ai-sdk/openai-compatible` at `OLLAMA_BASE_URL`.
 */
export async function modelFromId(id: string, options: ModelIdOptions = {}): Promise<LanguageModelV3> {
  const { provider, modelId, baseURL } = parseModelId(id);
  const env = options.env ?? process.env;
  const importModule = options.importModule ?? ((specifier: string) => import(specifier));
  // One path for every provider (smaller in a bundle than a case each): its package, its settings, its factory.
  const module = await loadPackage(
    PACKAGES[provider === "ollama" ? "openai-compatible" : provider],
    id,
    importModule,
  );
  const compatibleKey = env.OPENAI_COMPATIBLE_API_KEY;
  const settings =
    provider === "openai"
      ? {
          apiKey: requireKey(env, "OPENAI_API_KEY", id),
          ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
        }
      : provider === "anthropic"
        ? { apiKey: requireKey(env, "ANTHROPIC_API_KEY", id) }
        : provider === "ollama"
          ? { name: "ollama", baseURL: env.OLLAMA_BASE_URL ?? DEFAULT_OLLAMA_BASE_URL }
          : { name: "openai-compatible", baseURL, ...(compatibleKey ? { apiKey: compatibleKey } : {}) };
  const factory =
    provider === "openai"
      ? "createOpenAI"
      : provider === "anthropic"
        ? "createAnthropic"
        : "createOpenAICompatible";
  return (module[factory] as Factory)(settings)(modelId);
}
