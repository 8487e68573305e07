import type { Tool } from "../tool/tool.js";
import type { SearchableToolOptions } from "./searchable-tool.js";
import type { ToolSearchIndex } from "./tool-search-index.js";

/** Ranks the catalogue for a query: the best `limit` tools, best first. */
export type ToolRanker = (query: string, limit: number, signal?: AbortSignal) => Promise<readonly Tool[]>;

/** The ranker of a searchable facade: lexical (BM25) over `index`. */
export function toolRanker(index: ToolSearchIndex, _options: SearchableToolOptions): ToolRanker {
  return async (query, limit) => index.search(query, limit).map((hit) => hit.tool);
}
