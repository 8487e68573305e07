import { ConfigurationError } from "../errors/configuration-error.js";
import type { Tool } from "../tool/tool.js";
import { isDestructive, plainVerbs, relatedTerms } from "./action-words.js";
import { searchTerms } from "./search-terms.js";
import { DEFAULT_TOOL_SEARCH_PARAMETERS, type ToolSearchParameters } from "./tool-search-parameters.js";
import { buildPostings, type Posting } from "./tool-search-postings.js";
import { queryTermShares } from "./tool-search-query.js";
import {
  type CatalogueServers,
  capPerServer,
  DEFAULT_MAX_SERVER_SHARE,
  namespacesOf,
  serverCap,
  serversOf,
  topCapped,
} from "./tool-search-sources.js";

export { toolDocumentText } from "./tool-search-document.js";

/** One match of a {@link ToolSearchIndex} search. */
export interface ToolSearchHit {
  /** The matching tool, as given to the index. */
  readonly tool: Tool;
  /** Its position in the index's tool list. */
  readonly position: number;
  /** The relevance score (higher is better; only comparable within one search). */
  readonly score: number;
}

/**
 * The longest query a search reads, in characters (a longer one is cut):
 * a model's query is untrusted text, and no request needs more.
 */
export const MAX_QUERY_CHARS = 1_000;

/** `query` cut to {@link MAX_QUERY_CHARS}. */
export function boundedQuery(query: string): string {
  return query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
}

/** Options of {@link ToolSearchIndex.of}. */
export interface ToolSearchOptions {
  /**
   * The largest share of a search's results one MCP server (a tool's
   * `definition.metadata.mcpServer`) may fill unless the query names it,
   * rounded up: 0.4 is 2 of 5; 1 turns the cap off. Its further matches
   * follow everyone else's, so a result is never shorter.
   * @default 0.4
   */
  readonly maxServerShare?: number;
}

function maxServerShareOf(options: ToolSearchOptions): number {
  const share = options.maxServerShare ?? DEFAULT_MAX_SERVER_SHARE;
  if (!(share > 0 && share <= 1)) {
    throw new ConfigurationError(`maxServerShare must be more than 0 and at most 1, not ${share}`);
  }
  return share;
}

/**
 * A lexical search index over any list of tools (MCP tools, tool objects,
 * nested facades): BM25F over each tool's name, description and parameter
 * names and descriptions (each field length-normalised on its own), with
 * `camelCase` / `snake_case` split and light stemming; a query also reaches
 * prefixes, abbreviations, name acronyms and related action words, and a
 * namespace it names is boosted (docs/tool-search.md). Everything is
 * computed once, when the index is built: a search tokenises only the query
 * and adds up precomputed per-tool scores.
 */
export class ToolSearchIndex {
  /** The indexed tools, in the order given. */
  readonly tools: readonly Tool[];
  private readonly parameters: ToolSearchParameters;
  private readonly postings: ReadonlyMap<string, Posting>;
  /** Every index term, sorted (for prefix matches). */
  private readonly vocabulary: readonly string[];
  /** Scratch space reused by every search (searches are synchronous). */
  private readonly scores: Float64Array;
  private readonly touched: Uint32Array;
  /** Each tool's namespace (an index into `namespaces`), or -1. */
  private readonly namespaceOf: Int32Array;
  /** Namespaces (`slack` of `slack_post_message`) by their stem. */
  private readonly namespaces: ReadonlyMap<string, number>;
  /** 1 for each tool whose name's first action word is destructive (`delete_volume`). */
  private readonly destructive: Uint8Array;
  /** The catalogue's MCP servers: each tool's, and their ids by the stems of their names. */
  private readonly servers: CatalogueServers;
  /** The largest share of a result one server not named by the query may fill. */
  private readonly maxServerShare: number;

  private constructor(tools: readonly Tool[], parameters: ToolSearchParameters, options: ToolSearchOptions) {
    this.tools = tools;
    this.parameters = parameters;
    this.maxServerShare = maxServerShareOf(options);
    const servers = serversOf(tools);
    this.servers = servers;
    const count = tools.length;
    const { postings, vocabulary, names } = buildPostings(tools, parameters);
    this.postings = postings;
    this.vocabulary = vocabulary;
    this.scores = new Float64Array(count);
    this.touched = new Uint32Array(count);
    [this.namespaces, this.namespaceOf] = namespacesOf(names);
    this.destructive = Uint8Array.from(names, (stems) => {
      const action = stems.find((term) => relatedTerms(term).length > 0);
      return action !== undefined && isDestructive(action) ? 1 : 0;
    });
  }

  /** An index over `tools` (kept in their order; ties rank in that order). */
  static of(tools: readonly Tool[], options: ToolSearchOptions = {}): ToolSearchIndex {
    return new ToolSearchIndex([...tools], DEFAULT_TOOL_SEARCH_PARAMETERS, options);
  }

  /**
   * An index ranking with other constants than the defaults.
   * @internal For the benchmark's parameter sweep (`bench/tool-search-sweep.mjs`).
   */
  static withParameters(
    tools: readonly Tool[],
    parameters: ToolSearchParameters,
    options: ToolSearchOptions = {},
  ): ToolSearchIndex {
    return new ToolSearchIndex([...tools], parameters, options);
  }

  /** How many tools are indexed. */
  get size(): number {
    return this.tools.length;
  }

  /**
   * The best `limit` matches of `query`, best first; none when no query word
   * occurs in any tool. One MCP server fills at most `maxServerShare` of them
   * unless the query names it; its further matches follow everyone else's.
   */
  search(request: string, limit: number): ToolSearchHit[] {
    if (limit < 1) return [];
    return this.rank(request, limit, true);
  }

  /**
   * The best `limit` matches of `query` by score alone, not capped per server.
   * @internal For hybrid ranking, which caps the fused ranking ({@link ToolSearchIndex.capped}).
   */
  searchUncapped(request: string, limit: number): ToolSearchHit[] {
    if (limit < 1) return [];
    return this.rank(request, limit, false);
  }

  /**
   * The first `limit` of `ranked` (positions in this index, best first) with
   * the per-server cap of {@link ToolSearchIndex.search} applied for `request`.
   * @internal For hybrid ranking.
   */
  capped(request: string, ranked: readonly number[], limit: number): number[] {
    const exempt = this.namedServers(searchTerms(plainVerbs(boundedQuery(request))));
    const cap = serverCap(limit, this.maxServerShare);
    return capPerServer(ranked, limit, cap, this.servers.serverIdOf, exempt);
  }

  private namedServers(terms: readonly string[]): Set<number> {
    const named = new Set<number>();
    for (const term of terms) for (const server of this.servers.byTerm.get(term) ?? []) named.add(server);
    return named;
  }

  private rank(request: string, limit: number, cap: boolean): ToolSearchHit[] {
    const query = plainVerbs(boundedQuery(request));
    const { scores, touched } = this;
    let touchedCount = 0;
    const add = (posting: Posting, share: number): void => {
      const { positions, impacts } = posting;
      for (let index = 0; index < positions.length; index++) {
        const position = positions[index] as number;
        if (scores[position] === 0) touched[touchedCount++] = position;
        scores[position] = (scores[position] as number) + (impacts[index] as number) * share;
      }
    };
    for (const [term, share] of queryTermShares(query, this.parameters, this.postings, this.vocabulary)) {
      const posting = this.postings.get(term);
      if (posting) add(posting, share);
    }
    const named = new Set<number>();
    const words = searchTerms(query);
    for (const term of words) {
      const namespace = this.namespaces.get(term);
      if (namespace !== undefined) named.add(namespace);
    }
    const namedServers = this.namedServers(words);
    if (named.size > 0 || namedServers.size > 0) {
      const factor = 1 + this.parameters.namespaceBoost;
      for (let index = 0; index < touchedCount; index++) {
        const position = touched[index] as number;
        if (
          named.has(this.namespaceOf[position] as number) ||
          namedServers.has(this.servers.serverIdOf[position] as number)
        )
          scores[position] = (scores[position] as number) * factor;
      }
    }
    this.sparePermanence(query, touchedCount);
    const hits = cap ? this.bestCapped(touchedCount, limit, namedServers) : this.best(touchedCount, limit);
    for (let index = 0; index < touchedCount; index++) scores[touched[index] as number] = 0;
    return hits;
  }

  /** {@link ToolSearchIndex.best} with at most a share of the result from one server not in `exempt` ({@link topCapped}). */
  private bestCapped(touchedCount: number, limit: number, exempt: ReadonlySet<number>): ToolSearchHit[] {
    const cap = serverCap(limit, this.maxServerShare);
    if (cap >= limit) return this.best(touchedCount, limit);
    const { scores, touched } = this;
    const top = topCapped(scores, touched, touchedCount, limit, cap, this.servers.serverIdOf, exempt);
    if (top.length < limit && top.length < touchedCount) {
      // Fewer tools within the cap than `limit`: the best of the others follow.
      const chosen = new Set(top);
      for (const hit of this.best(touchedCount, limit + top.length)) {
        if (top.length === limit) break;
        if (!chosen.has(hit.position)) top.push(hit.position);
      }
    }
    return top.map((position) => ({
      tool: this.tools[position] as Tool,
      position,
      score: scores[position] as number,
    }));
  }

  /**
   * Unless the query asks to delete (any destructive action word), lowers the
   * scores of destructive tools (`delete_…`, `remove_…`) by destructivePenalty:
   * a request that does not ask for destruction never gets it merely because
   * its other words matched equally.
   */
  private sparePermanence(query: string, touchedCount: number): void {
    const penalty = this.parameters.destructivePenalty;
    if (penalty === 0 || searchTerms(query).some(isDestructive)) return;
    const { scores, touched, destructive } = this;
    for (let index = 0; index < touchedCount; index++) {
      const position = touched[index] as number;
      if (destructive[position] === 1) scores[position] = (scores[position] as number) * (1 - penalty);
    }
  }

  /** The top `limit` touched tools, best first (ties: catalogue order). */
  private best(touchedCount: number, limit: number): ToolSearchHit[] {
    const { scores, touched } = this;
    const top: number[] = [];
    const better = (a: number, b: number): boolean => {
      const difference = (scores[a] as number) - (scores[b] as number);
      return difference > 0 || (difference === 0 && a < b);
    };
    for (let index = 0; index < touchedCount; index++) {
      const position = touched[index] as number;
      if (top.length === limit && !better(position, top[top.length - 1] as number)) continue;
      let slot = top.length === limit ? limit - 1 : top.length;
      while (slot > 0 && better(position, top[slot - 1] as number)) {
        top[slot] = top[slot - 1] as number;
        slot--;
      }
      top[slot] = position;
    }
    return top.map((position) => ({
      tool: this.tools[position] as Tool,
      position,
      score: scores[position] as number,
    }));
  }
}
