import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { AgentProcess } from "../platform/agent-process.js";
import { embedInProcess } from "../platform/process-embedding.js";
import { Logger } from "../tool/logger.js";
import type { Tool } from "../tool/tool.js";
import type { SearchableToolOptions } from "./searchable-tool.js";
import { type ToolEmbedder, ToolEmbeddings } from "./tool-embeddings.js";
import { boundedQuery, type ToolSearchIndex } from "./tool-search-index.js";

/** Ranks the catalogue for a query: the best `limit` tools, best first. */
export type ToolRanker = (query: string, limit: number, signal?: AbortSignal) => Promise<readonly Tool[]>;

/** How many of each ranking's best take part in the fusion. */
const CANDIDATES = 50;
/** Reciprocal rank fusion's constant (the usual 60). */
const RRF_K = 60;
/** A tool found by vector similarity alone must be at least this similar to the query. */
export const MIN_VECTOR_ONLY_SIMILARITY = 0.3;

/** The platform's embedding model, through `OperationContext.embed`'s path, when the call runs in a process of a platform that has one. */
function platformEmbedder(
  options: SearchableToolOptions,
  signal: AbortSignal | undefined,
): ToolEmbedder | undefined {
  if (options.ranking === "lexical") return undefined;
  const process = AgentProcess.current();
  const registry = process?.platform?.embeddingModels;
  if (!process || !registry || registry.modelNames.length === 0) return undefined;
  const choice = options.embeddingModel ?? {};
  const { model, name } = registry.resolve(choice);
  return {
    id: `${name}:${model.provider}/${model.modelId}`,
    embed: (texts) => embedInProcess(process, texts, { ...choice, ...(signal ? { signal } : {}) }),
  };
}

/** Positions of the `count` tools most similar to `query`, best first, with their similarity. */
function nearest(vectors: readonly Float32Array[], query: Float32Array, count: number): [number, number][] {
  const scored: [number, number][] = [];
  for (let position = 0; position < vectors.length; position++) {
    const vector = vectors[position] as Float32Array;
    let dot = 0;
    const length = Math.min(vector.length, query.length);
    for (let index = 0; index < length; index++) dot += (vector[index] as number) * (query[index] as number);
    scored.push([position, dot]);
  }
  scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return scored.slice(0, count);
}

/** Reciprocal rank fusion of the lexical and vector rankings (positions, best first). */
function fuse(lexical: readonly number[], vector: readonly number[]): number[] {
  const scores = new Map<number, number>();
  const add = (ranking: readonly number[]): void => {
    ranking.forEach((position, rank) => {
      scores.set(position, (scores.get(position) ?? 0) + 1 / (RRF_K + rank + 1));
    });
  };
  add(lexical);
  add(vector);
  return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([position]) => position);
}

/**
 * The ranker of a searchable facade: lexical (BM25) over `index`; inside an
 * agent process whose platform has an embedding model (unless `ranking` is
 * `"lexical"`), hybrid: BM25 and cosine similarity fused by reciprocal rank.
 * A failing embedding model is logged and the search falls back to BM25
 * (a spent budget, a misconfiguration or a cancellation still end the call).
 */
export function toolRanker(index: ToolSearchIndex, options: SearchableToolOptions): ToolRanker {
  const embeddings = new ToolEmbeddings(index.tools, options.embeddingCacheFile);
  return async (request, limit, signal) => {
    const query = boundedQuery(request);
    const embedder = platformEmbedder(options, signal);
    if (!embedder) return index.search(query, limit).map((hit) => hit.tool);
    // Both rankings uncapped; the per-server cap applies to what is returned.
    const lexical = index.searchUncapped(query, Math.max(limit, CANDIDATES)).map((hit) => hit.position);
    let similar: [number, number][];
    try {
      const [vectors, queryVector] = await Promise.all([
        embeddings.vectors(embedder),
        ToolEmbeddings.query(embedder, query),
      ]);
      similar = nearest(vectors, queryVector, Math.max(limit, CANDIDATES));
    } catch (error) {
      if (signal?.aborted || AgentProcess.current()?.signal.aborted) throw error;
      if (BudgetExceededError.isInstance(error) || ConfigurationError.isInstance(error)) throw error;
      Logger.current().warn("Tool search could not embed; ranking by words only.", {
        error: error instanceof Error ? error.message : String(error),
      });
      return index.capped(query, lexical, limit).map((position) => index.tools[position] as Tool);
    }
    const lexicalSet = new Set(lexical);
    const vector = similar
      .filter(
        ([position, similarity]) => lexicalSet.has(position) || similarity >= MIN_VECTOR_ONLY_SIMILARITY,
      )
      .map(([position]) => position);
    return index.capped(query, fuse(lexical, vector), limit).map((position) => index.tools[position] as Tool);
  };
}
