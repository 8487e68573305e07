import { describe, expect, it } from "vitest";
import { HashEmbeddingModel } from "./hash-embedding-model.js";

describe("HashEmbeddingModel", () => {
  it("gives the same unit vector for the same words, whatever the case and punctuation", async () => {
    const model = new HashEmbeddingModel({ dimensions: 32 });
    const { embeddings, usage } = await model.doEmbed({ values: ["Red apple", "red, APPLE!", ""] });
    expect(embeddings[0]).toEqual(embeddings[1]);
    expect(Math.hypot(...(embeddings[0] as number[]))).toBeCloseTo(1, 10);
    expect(embeddings[2]).toEqual(new Array(32).fill(0));
    expect(usage).toEqual({ tokens: 4 });
    expect(model.requests).toEqual([["Red apple", "red, APPLE!", ""]]);
  });

  it("is an EmbeddingModelV3 with the given ids and limit", () => {
    const model = new HashEmbeddingModel({ modelId: "m", provider: "p", maxEmbeddingsPerCall: 3 });
    expect([model.specificationVersion, model.modelId, model.provider, model.maxEmbeddingsPerCall]).toEqual([
      "v3",
      "m",
      "p",
      3,
    ]);
  });

  it("fails every call with the configured error, after recording it", async () => {
    const model = new HashEmbeddingModel({ error: new Error("down") });
    await expect(model.doEmbed({ values: ["x"] })).rejects.toThrow("down");
    expect(model.requests).toEqual([["x"]]);
  });
});
