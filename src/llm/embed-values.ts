import type { EmbeddingModelV3, SharedV3ProviderOptions } from "@ai-sdk/provider";

/** Options of {@link embedValues}. */
export interface EmbedValuesOptions {
  readonly signal?: AbortSignal;
  /** Passed through to the provider. */
  readonly providerOptions?: SharedV3ProviderOptions;
}

/** The embeddings of a list of texts, in input order, and the input tokens spent. */
export interface EmbedValuesResult {
  readonly embeddings: number[][];
  readonly tokens: number;
}

/**
 * Embeds `values` with `model`, in chunks of the model's
 * `maxEmbeddingsPerCall`, one chunk after the other; an empty list makes no call.
 */
export async function embedValues(
  model: EmbeddingModelV3,
  values: readonly string[],
  options: EmbedValuesOptions = {},
): Promise<EmbedValuesResult> {
  if (values.length === 0) return { embeddings: [], tokens: 0 };
  const limit = (await model.maxEmbeddingsPerCall) ?? Number.POSITIVE_INFINITY;
  const size = Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : values.length;
  const embeddings: number[][] = [];
  let tokens = 0;
  for (let start = 0; start < values.length; start += size) {
    const chunk = values.slice(start, start + size);
    const result = await model.doEmbed({
      values: chunk,
      ...(options.signal ? { abortSignal: options.signal } : {}),
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    });
    if (result.embeddings.length !== chunk.length) {
      throw new Error(
        `Embedding model ${model.provider}/${model.modelId} returned ${result.embeddings.length} embeddings for ${chunk.length} texts.`,
      );
    }
    embeddings.push(...result.embeddings);
    tokens += result.usage?.tokens ?? 0;
  }
  return { embeddings, tokens };
}
