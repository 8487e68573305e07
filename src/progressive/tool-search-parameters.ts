/** How one field of a tool's search document counts in BM25F. */
export interface FieldParameters {
  /** How much one occurrence counts, against one in the description. */
  readonly weight: number;
  /** Length normalisation within this field (0: none, 1: full). */
  readonly b: number;
}

/**
 * The constants of the lexical tool ranker (BM25F with query expansion).
 * Internal: the defaults were chosen by a sweep on the dev half of the
 * tool-search benchmark's requests (`bench/tool-search-sweep.mjs`), never
 * on its held-out half.
 */
export interface ToolSearchParameters {
  /** BM25 term-frequency saturation. */
  readonly k1: number;
  readonly name: FieldParameters;
  readonly description: FieldParameters;
  readonly parameterNames: FieldParameters;
  readonly parameterDescriptions: FieldParameters;
  /** A nested facade's children's names and descriptions (a facade is found by what it unfolds into). */
  readonly children: FieldParameters;
  /** Acronyms of the name's inner phrases (`pr` for `get_pull_request_files`). */
  readonly acronyms: FieldParameters;
  /** The name of the MCP server the tool comes from (`memory` for the memory server's `create_entities`). */
  readonly server: FieldParameters;
  /** A query word also matches longer index words it begins (`repo` → `repository`), at this share. */
  readonly prefixShare: number;
  /** An index word of 3+ letters that begins a longer query word (`env` for `environment`) counts this share. */
  readonly abbreviationShare: number;
  /** A related action word (`remove` for `delete`) counts this share. */
  readonly relatedShare: number;
  /** When the query names a tools' namespace (`slack` of `slack_post_message`), their scores grow by this share. */
  readonly namespaceBoost: number;
  /** A query word's exact surface form (`images`, not only `image`) adds this share of its own score. */
  readonly surfaceShare: number;
  /** Unless the query has a destructive action word, a destructive tool's (`delete_…`) score shrinks by this share. */
  readonly destructivePenalty: number;
  /** A word inside a literal value (`notes` of `notes.md`, `example` of `https://example.com`) counts this share of an ordinary word. */
  readonly valueShare: number;
  /** A question ("what …", "…?") reaches the reading actions (`get`, `list`, `read`, `show`) at this share. */
  readonly questionShare: number;
  /** A literal's kind (`url` for `https://…`, `file` and `path` for `notes.md`) counts this share. */
  readonly literalShare: number;
}

/** Chosen by `bench/tool-search-sweep.mjs` on the dev requests (see docs/tool-search.md). */
export const DEFAULT_TOOL_SEARCH_PARAMETERS: ToolSearchParameters = {
  k1: 2,
  name: { weight: 1, b: 1 },
  description: { weight: 6, b: 0.75 },
  parameterNames: { weight: 0.5, b: 0.75 },
  parameterDescriptions: { weight: 0.5, b: 0.75 },
  children: { weight: 0.5, b: 0.75 },
  acronyms: { weight: 1.5, b: 0 },
  server: { weight: 1, b: 0 },
  prefixShare: 0.5,
  abbreviationShare: 0.5,
  relatedShare: 0.3,
  surfaceShare: 0.15,
  namespaceBoost: 1,
  literalShare: 0.5,
  questionShare: 0.3,
  valueShare: 0.5,
  destructivePenalty: 0.1,
};
