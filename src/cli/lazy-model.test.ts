import { describe, expect, it } from "vitest";
import { lazyModel } from "./lazy-model.js";

describe("lazyModel", () => {
  it("names the provider and model from the id without loading anything", () => {
    const model = lazyModel("anthropic:claude-sonnet-4-5", { env: {} });
    expect([model.provider, model.modelId]).toEqual(["anthropic", "claude-sonnet-4-5"]);
  });

  it("fails the first call, by name, when the key is missing", async () => {
    const model = lazyModel("anthropic:claude-sonnet-4-5", { env: {} });
    await expect(model.doGenerate({ prompt: [] })).rejects.toThrow(
      "Model 'anthropic:claude-sonnet-4-5' needs an API key: set the environment variable ANTHROPIC_API_KEY.",
    );
  });

  it("rejects an id the model layer cannot resolve, at once", () => {
    expect(() => lazyModel("nope")).toThrow("Unknown model id 'nope'.");
  });
});
