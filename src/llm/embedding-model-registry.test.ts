import type { EmbeddingModelV2 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { HashEmbeddingModel } from "../testing/hash-embedding-model.js";
import { EmbeddingModelRegistry } from "./embedding-model-registry.js";
import { asEmbeddingModelV3 } from "./embedding-model-v2-adapter.js";

describe("EmbeddingModelRegistry", () => {
  const small = new HashEmbeddingModel({ modelId: "small" });
  const large = new HashEmbeddingModel({ modelId: "large", dimensions: 32 });

  it("maps the only model to the default role", () => {
    const registry = EmbeddingModelRegistry.create({ models: { small } });
    expect(registry.roleMap).toEqual({ default: "small" });
    expect(registry.resolve()).toEqual({ model: small, name: "small" });
  });

  it("resolves by model name before role, and by role", () => {
    const registry = EmbeddingModelRegistry.create({
      models: { small, large },
      roles: { default: "small", precise: "large" },
    });
    expect(registry.modelNames).toEqual(["small", "large"]);
    expect(registry.resolve({ role: "precise" }).model).toBe(large);
    expect(registry.resolve({ model: "small", role: "precise" }).model).toBe(small);
  });

  it("names what is known when a model or role is unknown", () => {
    const registry = EmbeddingModelRegistry.create({ models: { small, large } });
    expect(() => registry.resolve()).toThrow(
      "No embedding model for role 'default': map it with embeddingRoles: { default: \"<model name>\" }. Known roles: []",
    );
    expect(() => registry.resolve({ model: "huge" })).toThrow(
      "Unknown embedding model 'huge'. Known embedding models: [small, large]",
    );
  });

  it("says how to configure one when there is none", () => {
    expect(() => EmbeddingModelRegistry.EMPTY.resolve()).toThrow(ConfigurationError);
    expect(() => EmbeddingModelRegistry.EMPTY.resolve()).toThrow(/pass embeddingModels: \{ default:/);
  });

  it("fails fast on a role mapped to an unknown model and on a value that is not an EmbeddingModelV3", () => {
    expect(() => EmbeddingModelRegistry.create({ models: { small }, roles: { fast: "tiny" } })).toThrow(
      "Embedding role 'fast' maps to unknown embedding model 'tiny'. Known embedding models: [small]",
    );
    expect(() => EmbeddingModelRegistry.create({ models: { bad: { doEmbed: () => {} } as never } })).toThrow(
      /Embedding model 'bad' is not an AI SDK EmbeddingModelV3/,
    );
  });
});

describe("asEmbeddingModelV3", () => {
  it("adapts an EmbeddingModelV2, keeping its ids, limit and results", async () => {
    const v2: EmbeddingModelV2<string> = {
      specificationVersion: "v2",
      provider: "old",
      modelId: "legacy",
      maxEmbeddingsPerCall: 4,
      supportsParallelCalls: true,
      doEmbed: async ({ values }) => ({
        embeddings: values.map((text) => [text.length]),
        usage: { tokens: 3 },
      }),
    };
    const registry = EmbeddingModelRegistry.create({ models: { legacy: v2 } });
    const { model } = registry.resolve();
    expect([model.specificationVersion, model.provider, model.modelId, model.maxEmbeddingsPerCall]).toEqual([
      "v3",
      "old",
      "legacy",
      4,
    ]);
    expect(await model.doEmbed({ values: ["ab", "c"] })).toEqual({
      embeddings: [[2], [1]],
      usage: { tokens: 3 },
      warnings: [],
    });
    const v3 = new HashEmbeddingModel();
    expect(asEmbeddingModelV3(v3)).toBe(v3);
  });
});
