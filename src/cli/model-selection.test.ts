import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { EMPTY_CONFIG, type EmbabelConfig } from "./cli-config.js";
import { NO_PROVIDER_MESSAGE, selectModels } from "./model-selection.js";
import { UsageError } from "./usage-error.js";

const config = (models: EmbabelConfig["models"], roles: EmbabelConfig["roles"] = {}): EmbabelConfig => ({
  models,
  roles,
  mcpServers: {},
});

describe("selectModels", () => {
  it("says exactly which variables to set when nothing is configured", () => {
    expect(() => selectModels(EMPTY_CONFIG, {}, undefined)).toThrow(NO_PROVIDER_MESSAGE);
    expect(NO_PROVIDER_MESSAGE).toContain("export OPENAI_API_KEY=");
    expect(NO_PROVIDER_MESSAGE).toContain("--scripted");
  });

  it("picks openai:gpt-4.1 when only OPENAI_API_KEY is set", () => {
    const selection = selectModels(EMPTY_CONFIG, { OPENAI_API_KEY: "sk-test" }, undefined);
    expect(selection.models).toEqual({ default: "openai:gpt-4.1" });
    expect(selection.roles).toEqual({ default: "default" });
  });

  it("picks the Anthropic and Ollama defaults from their variables", () => {
    expect(selectModels(EMPTY_CONFIG, { ANTHROPIC_API_KEY: "k" }, undefined).models.default).toBe(
      "anthropic:claude-sonnet-4-5",
    );
    expect(
      selectModels(EMPTY_CONFIG, { OLLAMA_BASE_URL: "http://127.0.0.1:11434/v1" }, undefined).models.default,
    ).toBe("ollama:qwen2.5");
  });

  it("says where an inferred model came from: the key's variable, or Ollama's base URL (not a key)", () => {
    expect(selectModels(EMPTY_CONFIG, { OPENAI_API_KEY: "sk" }, undefined).source).toBe(
      "OPENAI_API_KEY in the environment",
    );
    expect(selectModels(EMPTY_CONFIG, { ANTHROPIC_API_KEY: "sk" }, undefined).source).toBe(
      "ANTHROPIC_API_KEY in the environment",
    );
    expect(
      selectModels(EMPTY_CONFIG, { OLLAMA_BASE_URL: "http://127.0.0.1:11434/v1" }, undefined).source,
    ).toBe("the Ollama base URL in the environment (OLLAMA_BASE_URL)");
  });

  it("uses EMBABEL_MODEL and names the key it needs when missing", () => {
    expect(() => selectModels(EMPTY_CONFIG, { EMBABEL_MODEL: "anthropic:claude-opus-4" }, undefined)).toThrow(
      "Model anthropic:claude-opus-4 needs ANTHROPIC_API_KEY. Set it (export ANTHROPIC_API_KEY=...) and run again, or add --scripted to run offline.",
    );
    const selection = selectModels(
      EMPTY_CONFIG,
      { EMBABEL_MODEL: "ollama:llama3.2", OPENAI_API_KEY: "sk" },
      undefined,
    );
    expect(selection.models.default).toBe("ollama:llama3.2");
    expect(selection.source).toBe("EMBABEL_MODEL");
  });

  it("lets --model win over the environment", () => {
    const selection = selectModels(
      EMPTY_CONFIG,
      { EMBABEL_MODEL: "openai:gpt-4.1", OPENAI_API_KEY: "sk" },
      "openai:gpt-4.1-mini",
    );
    expect(selection.models.default).toBe("openai:gpt-4.1-mini");
    expect(selection.source).toBe("--model");
  });

  it("uses the config file's models and roles", () => {
    const selection = selectModels(
      config(
        { best: { id: "openai:gpt-4.1" }, local: { id: "ollama:qwen2.5" } },
        { default: "best", fast: "local" },
      ),
      { OPENAI_API_KEY: "sk" },
      undefined,
    );
    expect(selection.models).toEqual({ best: "openai:gpt-4.1", local: "ollama:qwen2.5" });
    expect(selection.roles).toEqual({ default: "best", fast: "local" });
  });

  it("makes a single configured model the default", () => {
    const selection = selectModels(config({ only: { id: "ollama:qwen2.5" } }), {}, undefined);
    expect(selection.roles.default).toBe("only");
  });

  it("asks for a default role when several models are configured without one", () => {
    expect(() =>
      selectModels(config({ a: { id: "ollama:a" }, b: { id: "ollama:b" } }), {}, undefined),
    ).toThrow('no "roles": { "default": "<model name>" }');
  });

  it("folds a configured baseURL into an openai-compatible id", () => {
    const selection = selectModels(
      config({ local: { id: "openai-compatible:llama3", baseURL: "http://127.0.0.1:8080/v1" } }),
      {},
      undefined,
    );
    expect(selection.models.local).toBe("openai-compatible:llama3@http://127.0.0.1:8080/v1");
  });

  it("rejects an id the model layer cannot resolve", () => {
    expect(() => selectModels(EMPTY_CONFIG, {}, "gpt-4.1")).toThrow("Unknown model id 'gpt-4.1'.");
    expect(() => selectModels(EMPTY_CONFIG, {}, "openai-compatible:local")).toThrow("needs a base URL");
  });

  it("treats a bad --model as a usage error naming --model, without the library-only hint", () => {
    expect(() => selectModels(EMPTY_CONFIG, {}, "foo:bar")).toThrow(
      expect.objectContaining({
        name: UsageError.name,
        message:
          "Unknown model id 'foo:bar'. Use 'openai:<model>', 'anthropic:<model>', 'ollama:<model>' or 'openai-compatible:<model>@<baseURL>'. (from --model)",
      }),
    );
  });

  it("names EMBABEL_MODEL or the config file's model when their id is bad", () => {
    expect(() => selectModels(EMPTY_CONFIG, { EMBABEL_MODEL: "bogus" }, undefined)).toThrow(
      expect.objectContaining({
        name: ConfigurationError.name,
        message: expect.stringMatching(/^Unknown model id 'bogus'\. .* \(from EMBABEL_MODEL\)$/),
      }),
    );
    expect(() =>
      selectModels(
        config({ best: { id: "openai:gpt-4.1" }, quick: { id: "gtp-4" } }, { default: "best" }),
        {
          OPENAI_API_KEY: "sk",
        },
        undefined,
      ),
    ).toThrow("(from the config file's model 'quick')");
  });
});

describe("selectModels with several configured models", () => {
  it("checks the key of the default model only (others load on first use)", () => {
    const selection = selectModels(
      config(
        { best: { id: "openai:gpt-4.1" }, claude: { id: "anthropic:claude-sonnet-4-5" } },
        { default: "best" },
      ),
      { OPENAI_API_KEY: "sk" },
      undefined,
    );
    expect(selection.models).toEqual({ best: "openai:gpt-4.1", claude: "anthropic:claude-sonnet-4-5" });
  });

  it("accepts a role that names a model id directly", () => {
    const selection = selectModels(
      config({ local: { id: "ollama:qwen2.5" } }, { default: "openai:gpt-4.1-mini" }),
      { OPENAI_API_KEY: "sk" },
      undefined,
    );
    expect(selection.models["openai:gpt-4.1-mini"]).toBe("openai:gpt-4.1-mini");
    expect(selection.roles.default).toBe("openai:gpt-4.1-mini");
  });
});
