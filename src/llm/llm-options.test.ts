import { describe, expect, it } from "vitest";
import { LlmOptions } from "./llm-options.js";

describe("LlmOptions", () => {
  it("starts from a static factory and chains instance methods", () => {
    const options = LlmOptions.withModel("gpt-4.1").withTemperature(0).withMaxTokens(500).withTopP(0.9);
    expect(options).toMatchObject({ model: "gpt-4.1", temperature: 0, maxTokens: 500, topP: 0.9 });
  });

  it("is immutable: each with* returns a new instance and leaves the original alone", () => {
    const base = LlmOptions.withRole("smart");
    const hot = base.withTemperature(1);
    expect(base.temperature).toBeUndefined();
    expect(hot).not.toBe(base);
    expect(Object.isFrozen(hot)).toBe(true);
  });

  it("offers every static starting point", () => {
    expect(LlmOptions.withRole("fast").role).toBe("fast");
    expect(LlmOptions.withTemperature(0.3).temperature).toBe(0.3);
    expect(LlmOptions.withMaxTokens(10).maxTokens).toBe(10);
    expect(LlmOptions.withTopP(0.5).topP).toBe(0.5);
  });

  it("turns into loop settings with maxTokens as maxOutputTokens and nothing unset", () => {
    const settings = LlmOptions.withModel("m")
      .withMaxTokens(100)
      .withTopK(5)
      .withSeed(1)
      .withStopSequences(["END"])
      .toSettings();
    expect(settings).toEqual({ maxOutputTokens: 100, topK: 5, seed: 1, stopSequences: ["END"] });
  });

  it("merges set fields of other options on top", () => {
    const merged = LlmOptions.withModel("a").withTemperature(0.1).merge({ temperature: 0.7, role: "smart" });
    expect(merged).toMatchObject({ model: "a", temperature: 0.7, role: "smart" });
  });

  it("passes provider options through", () => {
    const options = LlmOptions.DEFAULT.withProviderOptions({ openai: { reasoningEffort: "low" } });
    expect(options.toSettings().providerOptions).toEqual({ openai: { reasoningEffort: "low" } });
  });

  it("returns an LlmOptions unchanged from of()", () => {
    const options = LlmOptions.withModel("x");
    expect(LlmOptions.of(options)).toBe(options);
    expect(LlmOptions.of({ model: "y" }).model).toBe("y");
  });
});
