import type {
  EmbeddingModelV2,
  EmbeddingModelV3,
  EmbeddingModelV3Result,
  SharedV2ProviderOptions,
} from "@ai-sdk/provider";

/** An embedding model of either AI SDK specification the platform accepts. */
export type EmbeddingModelEntry = EmbeddingModelV3 | EmbeddingModelV2<string>;

/** `model` as an `EmbeddingModelV3`: V3 models as they are, V2 models adapted (same calls, no warnings). */
export function asEmbeddingModelV3(model: EmbeddingModelEntry): EmbeddingModelV3 {
  if (model.specificationVersion === "v3") return model;
  return {
    specificationVersion: "v3",
    provider: model.provider,
    modelId: model.modelId,
    maxEmbeddingsPerCall: model.maxEmbeddingsPerCall,
    supportsParallelCalls: model.supportsParallelCalls,
    async doEmbed(options): Promise<EmbeddingModelV3Result> {
      const result = await model.doEmbed({
        ...options,
        // V3 options are V2 options whose JSON values may be undefined; providers skip those.
        providerOptions: options.providerOptions as SharedV2ProviderOptions | undefined,
      });
      return {
        embeddings: result.embeddings,
        ...(result.usage ? { usage: result.usage } : {}),
        ...(result.providerMetadata ? { providerMetadata: result.providerMetadata } : {}),
        ...(result.response ? { response: result.response } : {}),
        warnings: [],
      };
    },
  };
}
