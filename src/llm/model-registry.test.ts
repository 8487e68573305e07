import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ScriptedModel } from "../testing/index.js";
import { LlmOptions } from "./llm-options.js";
import { modelFromId, parseModelId } from "./model-id.js";
import { ModelRegistry } from "./model-registry.js";

const env = { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "ak-test" };

describe("ModelRegistry", () => {
  const smart = new ScriptedModel([], { modelId: "smart-model" });
  const fast = new ScriptedModel([], { modelId: "fast-model" });
  const registry = ModelRegistry.create({
    models: { smart, fast },
    roles: { default: "fast", smart: "smart" },
  });

  it("resolves the default role when no options are given", () => {
    expect(registry.resolve().model).toBe(fast);
  });

  it("resolves a role", () => {
    expect(registry.resolve(LlmOptions.withRole("smart"))).toMatchObject({ model: smart, name: "smart" });
  });

  it("lets a model name win over a role", () => {
    expect(registry.resolve(LlmOptions.withRole("smart").withModel("fast")).model).toBe(fast);
  });

  it("carries the sampling settings of the options", () => {
    expect(registry.resolve(LlmOptions.withTemperature(0).withMaxTokens(9)).settings).toEqual({
      temperature: 0,
      maxOutputTokens: 9,
    });
  });

  it("makes the only model the default role", () => {
    expect(ModelRegistry.create({ models: { only: smart } }).resolve().model).toBe(smart);
  });

  it("names the unknown model and the known ones", () => {
    expect(() => registry.resolve(LlmOptions.withModel("gpt-9"))).toThrow(
      "Unknown model 'gpt-9'. Known models: [smart, fast]",
    );
  });

  it("names an unmapped role and says how to map it", () => {
    expect(() => registry.resolve(LlmOptions.withRole("cheapest"))).toThrow(
      `No model for role 'cheapest': map it with roles: { cheapest: "<model name>" }. Known roles: [default, smart]`,
    );
  });

  it("rejects a role mapped to an unknown model at creation", () => {
    expect(() => ModelRegistry.create({ models: { smart }, roles: { fast: "nope" } })).toThrow(
      ConfigurationError,
    );
  });

  it("loads models given by id through their provider package", async () => {
    const loaded = await ModelRegistry.load({
      models: { main: "openai:gpt-4.1", claude: "anthropic:claude-sonnet-4-0" },
      env,
    });
    expect(loaded.resolve(LlmOptions.withModel("main")).model).toMatchObject({
      provider: "openai.responses",
      modelId: "gpt-4.1",
    });
    expect(loaded.resolve(LlmOptions.withModel("claude")).model.provider).toBe("anthropic.messages");
  });

  it("asks for load() before a synchronous resolve of an id entry", () => {
    const lazy = ModelRegistry.create({ models: { main: "openai:gpt-4.1" }, env });
    expect(() => lazy.resolve()).toThrow("await registry.load()");
  });

  it("resolves a loaded model at once and an id entry through a promise (resolveLoadedOrAsync)", async () => {
    expect(registry.resolveLoadedOrAsync(LlmOptions.withRole("smart"))).toMatchObject({ model: smart });
    const lazy = ModelRegistry.create({ models: { main: "ollama:qwen2.5" }, env });
    const pending = lazy.resolveLoadedOrAsync();
    expect(pending).toBeInstanceOf(Promise);
    expect((await pending).model).toMatchObject({ modelId: "qwen2.5" });
    expect(lazy.resolveLoadedOrAsync()).not.toBeInstanceOf(Promise);
    await expect(
      Promise.resolve().then(() => registry.resolveLoadedOrAsync(LlmOptions.withModel("nope"))),
    ).rejects.toThrow(ConfigurationError);
  });

  it("loads an id entry on first resolveAsync, and accepts an id as the model name", async () => {
    const lazy = ModelRegistry.create({ models: { main: "ollama:qwen2.5" }, env });
    expect((await lazy.resolveAsync()).model).toMatchObject({ modelId: "qwen2.5" });
    expect((await lazy.resolveAsync(LlmOptions.withModel("openai:gpt-4o"))).model.modelId).toBe("gpt-4o");
  });

  it("prices calls with the default table plus user prices", () => {
    const priced = ModelRegistry.create({
      models: { smart },
      prices: { "smart-model": { inputPerMillion: 1, outputPerMillion: 1 } },
    });
    const usage = { inputTokens: 1_000_000, outputTokens: 0, totalTokens: 1_000_000 };
    expect(priced.costOf({ modelId: "smart-model", usage })).toBe(1);
    expect(priced.costOf({ modelId: "gpt-4.1", usage })).toBe(2);
  });
});

describe("parseModelId", () => {
  it("parses provider and model", () => {
    expect(parseModelId("anthropic:claude-sonnet-4-0")).toEqual({
      provider: "anthropic",
      modelId: "claude-sonnet-4-0",
    });
  });

  it("parses an OpenAI-compatible id with its base URL", () => {
    expect(parseModelId("openai-compatible:llama3@http://127.0.0.1:8080/v1")).toEqual({
      provider: "openai-compatible",
      modelId: "llama3",
      baseURL: "http://127.0.0.1:8080/v1",
    });
  });

  it("says which forms are accepted for an unknown provider", () => {
    expect(() => parseModelId("mystery:model")).toThrow("Use 'openai:<model>', 'anthropic:<model>'");
  });

  it("requires a base URL for openai-compatible", () => {
    expect(() => parseModelId("openai-compatible:llama3")).toThrow("needs a base URL");
  });
});

describe("modelFromId", () => {
  it("names the environment variable to set when the OpenAI key is missing", async () => {
    await expect(modelFromId("openai:gpt-4.1", { env: {} })).rejects.toThrow(
      "Model 'openai:gpt-4.1' needs an API key: set the environment variable OPENAI_API_KEY.",
    );
  });

  it("names the environment variable to set when the Anthropic key is missing", async () => {
    await expect(modelFromId("anthropic:claude-sonnet-4-0", { env: {} })).rejects.toThrow(
      "ANTHROPIC_API_KEY",
    );
  });

  it("says exactly which package to install when the provider package is missing", async () => {
    const importModule = async (specifier: string) => {
      throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: "ERR_MODULE_NOT_FOUND" });
    };
    const error = await modelFromId("openai:gpt-4.1", { env, importModule }).catch(
      (caught: unknown) => caught,
    );
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      "Model 'openai:gpt-4.1' needs the provider package @ai-sdk/openai, which is not installed. Install it: npm i @ai-sdk/openai@3",
    );
  });

  it("builds each provider's model from its package, key and base URL", async () => {
    const url = (model: unknown) =>
      (model as { config: { url(options: { path: string; modelId: string }): string } }).config.url({
        path: "/x",
        modelId: "m",
      });
    const openai = await modelFromId("openai:gpt-4.1", {
      env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://10.0.0.3/v1" },
    });
    expect(openai).toMatchObject({ provider: "openai.responses", modelId: "gpt-4.1" });
    expect(url(openai)).toBe("http://10.0.0.3/v1/x");
    const anthropic = await modelFromId("anthropic:claude-sonnet-4", { env: { ANTHROPIC_API_KEY: "k" } });
    expect(anthropic).toMatchObject({ provider: "anthropic.messages", modelId: "claude-sonnet-4" });
    const compatible = await modelFromId("openai-compatible:llama3@http://10.0.0.4/v1", { env: {} });
    expect(compatible).toMatchObject({ provider: "openai-compatible.chat", modelId: "llama3" });
    expect(url(compatible)).toBe("http://10.0.0.4/v1/x");
    await expect(modelFromId("anthropic:claude-sonnet-4", { env: {} })).rejects.toThrow(
      "Model 'anthropic:claude-sonnet-4' needs an API key: set the environment variable ANTHROPIC_API_KEY.",
    );
  });

  it("reaches Ollama through the OpenAI-compatible provider at OLLAMA_BASE_URL", async () => {
    const model = await modelFromId("ollama:qwen2.5", {
      env: { OLLAMA_BASE_URL: "http://10.0.0.2:11434/v1" },
    });
    expect(model).toMatchObject({ provider: "ollama.chat", modelId: "qwen2.5" });
  });
});
