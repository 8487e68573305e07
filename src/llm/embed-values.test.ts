import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { HashEmbeddingModel } from "../testing/hash-embedding-model.js";
import { embedValues } from "./embed-values.js";

describe("embedValues", () => {
  it("embeds in order, chunked by maxEmbeddingsPerCall, summing the tokens", async () => {
    const model = new HashEmbeddingModel({ maxEmbeddingsPerCall: 2, dimensions: 4 });
    const { embeddings, tokens } = await embedValues(model, ["a b", "c", "d e f"]);
    expect(model.requests).toEqual([["a b", "c"], ["d e f"]]);
    expect(embeddings).toHaveLength(3);
    expect(embeddings[2]).toEqual((await model.doEmbed({ values: ["d e f"] })).embeddings[0]);
    expect(tokens).toBe(6);
  });

  it("reads a limit given as a promise, and treats a missing usage as zero tokens", async () => {
    const model: EmbeddingModelV3 = {
      specificationVersion: "v3",
      provider: "p",
      modelId: "m",
      maxEmbeddingsPerCall: Promise.resolve(1),
      supportsParallelCalls: false,
      doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1]), warnings: [] }),
    };
    expect(await embedValues(model, ["x", "y"])).toEqual({ embeddings: [[1], [1]], tokens: 0 });
  });

  it("refuses a reply with the wrong number of embeddings", async () => {
    const model: EmbeddingModelV3 = {
      specificationVersion: "v3",
      provider: "p",
      modelId: "m",
      maxEmbeddingsPerCall: undefined,
      supportsParallelCalls: false,
      doEmbed: async () => ({ embeddings: [[1]], warnings: [] }),
    };
    await expect(embedValues(model, ["x", "y"])).rejects.toThrow(
      "Embedding model p/m returned 1 embeddings for 2 texts.",
    );
  });

  it("passes the abort signal to the model", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(embedValues(new HashEmbeddingModel(), ["x"], { signal: controller.signal })).rejects.toThrow(
      "stop",
    );
  });
});
