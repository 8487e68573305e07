import type { EmbeddingModelV3, EmbeddingModelV3CallOptions, EmbeddingModelV3Result } from "@ai-sdk/provider";

/** Options of a {@link HashEmbeddingModel}. */
export interface HashEmbeddingModelOptions {
  /** Length of every vector. @default 8 */
  readonly dimensions?: number;
  /** Most texts per `doEmbed` call. @default undefined (no limit) */
  readonly maxEmbeddingsPerCall?: number;
  /** @default "hash-embedding" */
  readonly modelId?: string;
  /** @default "embabel-ts.hash" */
  readonly provider?: string;
  /** Reject every call with this error instead of answering (a provider failure). */
  readonly error?: unknown;
}

/**
 * A deterministic, in-process `EmbeddingModelV3`: each word of a text is
 * hashed into one of `dimensions` buckets and the vector is normalised, so
 * texts sharing words are close. It reports one token per word and records
 * the texts of every call in {@link HashEmbeddingModel.requests}.
 */
export class HashEmbeddingModel implements EmbeddingModelV3 {
  readonly specificationVersion = "v3";
  readonly provider: string;
  readonly modelId: string;
  readonly maxEmbeddingsPerCall: number | undefined;
  readonly supportsParallelCalls = false;
  /** The texts of every call, in order. */
  readonly requests: string[][] = [];
  private readonly dimensions: number;
  private readonly error: unknown;

  constructor(options: HashEmbeddingModelOptions = {}) {
    this.dimensions = options.dimensions ?? 8;
    this.maxEmbeddingsPerCall = options.maxEmbeddingsPerCall;
    this.modelId = options.modelId ?? "hash-embedding";
    this.provider = options.provider ?? "embabel-ts.hash";
    this.error = options.error;
  }

  async doEmbed(options: EmbeddingModelV3CallOptions): Promise<EmbeddingModelV3Result> {
    options.abortSignal?.throwIfAborted();
    this.requests.push([...options.values]);
    if (this.error !== undefined) throw this.error;
    let tokens = 0;
    const embeddings = options.values.map((text) => {
      const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      tokens += words.length;
      return this.vectorOf(words);
    });
    return { embeddings, usage: { tokens }, warnings: [] };
  }

  private vectorOf(words: readonly string[]): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const word of words) {
      const hash = fnv1a(word);
      const index = hash % this.dimensions;
      vector[index] = (vector[index] ?? 0) + ((hash >>> 16) & 1 ? 1 : -1);
    }
    const norm = Math.hypot(...vector);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
