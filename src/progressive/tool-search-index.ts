// Over 400 lines with reason: building the index and searching it share its private
// postings and scratch buffers; reading the query is in search-terms.ts, servers,
// namespaces and the per-server cap in tool-search-sources.ts.
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Tool } from "../tool/tool.js";
import { isNestedTool } from "../tool/unfolding.js";
import {
  acronymTerms,
  appendIndexTerms,
  isDestructive,
  plainVerbs,
  queryLiterals,
  questionTerms,
  relatedTerms,
  SURFACE_MARK,
  searchTerms,
  surfaceTerms,
} from "./search-terms.js";
import {
  DEFAULT_TOOL_SEARCH_PARAMETERS,
  type FieldParameters,
  type ToolSearchParameters,
} from "./tool-search-parameters.js";
import {
  type CatalogueServers,
  capPerServer,
  DEFAULT_MAX_SERVER_SHARE,
  namespacesOf,
  serverCap,
  serverOf,
  serversOf,
  topCapped,
} from "./tool-search-sources.js";

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

const MIN_PREFIX_LENGTH = 3;

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
const MAX_PREFIX_EXPANSIONS = 16;

/** The precomputed score contribution of one term to each tool containing it. */
interface Posting {
  readonly positions: Uint32Array;
  readonly impacts: Float32Array;
}

/** The fields of a tool's search document, in this order. */
const FIELDS = [
  "name",
  "description",
  "parameterNames",
  "parameterDescriptions",
  "children",
  "acronyms",
  "server",
] as const;
const FIELD_COUNT = FIELDS.length;
/** Bits of a term's count in one field, packed per field into one integer (7 × 4 bits: a small integer). */
const COUNT_BITS = 4;
const MAX_COUNT = (1 << COUNT_BITS) - 1;

function propertiesOf(tool: Tool): Readonly<Record<string, { description?: unknown }>> {
  const properties = tool.definition.inputSchema.jsonSchema.properties;
  return typeof properties === "object" && properties !== null
    ? (properties as Record<string, { description?: unknown }>)
    : {};
}

/**
 * Writes a tool's search document into reused buffers: the terms of all its
 * fields (stems, their surface forms, the name's acronyms) into `terms`, where
 * each field's terms end into `ends` and each field's length in stems into
 * `lengths`.
 */
function writeDocument(tool: Tool, terms: string[], ends: Uint32Array, lengths: Uint32Array): void {
  const { name, description } = tool.definition;
  const properties = propertiesOf(tool);
  terms.length = 0;
  FIELDS.forEach((field, index) => {
    let length = 0;
    if (field === "name") length = appendIndexTerms(name, terms);
    else if (field === "description") length = appendIndexTerms(description, terms);
    else if (field === "parameterNames") {
      for (const parameter in properties) length += appendIndexTerms(parameter, terms);
    } else if (field === "parameterDescriptions") {
      for (const parameter in properties) {
        const text = properties[parameter]?.description;
        if (typeof text === "string") length += appendIndexTerms(text, terms);
      }
    } else if (field === "children") {
      if (isNestedTool(tool)) {
        for (const child of tool.innerTools) {
          length += appendIndexTerms(child.definition.name, terms);
          length += appendIndexTerms(child.definition.description, terms);
        }
      }
    } else if (field === "acronyms") {
      for (const acronym of acronymTerms(name)) terms.push(acronym);
      length = terms.length - (ends[index - 1] as number);
    } else {
      const server = serverOf(tool);
      if (server !== undefined) length = appendIndexTerms(server, terms);
    }
    ends[index] = terms.length;
    lengths[index] = length;
  });
}

/** The text an embedding model sees for `tool`: name, description, parameter names and its MCP server, if any. */
export function toolDocumentText(tool: Tool): string {
  const { name, description } = tool.definition;
  const parameters = Object.keys(propertiesOf(tool));
  const server = serverOf(tool);
  return `${name}: ${description}${parameters.length > 0 ? ` (parameters: ${parameters.join(", ")})` : ""}${server === undefined ? "" : ` (MCP server: ${server})`}`;
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
    // One pass: per term, the tools containing it and its count in each field, packed
    // COUNT_BITS a field into one small integer; per tool, each field's length in stems.
    const lengths = new Uint32Array(count * FIELD_COUNT);
    const totalLengths = new Float64Array(FIELD_COUNT);
    const names: string[][] = [];
    const termIds = new Map<string, number>();
    const terms: string[] = [];
    const positionsOf: number[][] = [];
    const packedCountsOf: number[][] = [];
    const buffer: string[] = [];
    const ends = new Uint32Array(FIELD_COUNT);
    const fieldLengths = new Uint32Array(FIELD_COUNT);
    for (let position = 0; position < count; position++) {
      writeDocument(tools[position] as Tool, buffer, ends, fieldLengths);
      names.push(buffer.slice(0, fieldLengths[0]));
      let index = 0;
      for (let field = 0; field < FIELD_COUNT; field++) {
        lengths[position * FIELD_COUNT + field] = fieldLengths[field] as number;
        totalLengths[field] = (totalLengths[field] as number) + (fieldLengths[field] as number);
        const shift = field * COUNT_BITS;
        for (const end = ends[field] as number; index < end; index++) {
          const term = buffer[index] as string;
          let id = termIds.get(term);
          if (id === undefined) {
            id = terms.length;
            termIds.set(term, id);
            terms.push(term);
            positionsOf.push([]);
            packedCountsOf.push([]);
          }
          const positions = positionsOf[id] as number[];
          const packedCounts = packedCountsOf[id] as number[];
          const last = positions.length - 1;
          if (last >= 0 && positions[last] === position) {
            const packed = packedCounts[last] as number;
            if (((packed >>> shift) & MAX_COUNT) < MAX_COUNT) packedCounts[last] = packed + (1 << shift);
          } else {
            positions.push(position);
            packedCounts.push(1 << shift);
          }
        }
      }
    }
    // BM25F: each field's count weighted and normalised by that field's length, saturated once.
    const fields = FIELDS.map((field) => parameters[field]);
    const averageLengths = Array.from(totalLengths, (total) => (count > 0 && total > 0 ? total / count : 1));
    const { k1 } = parameters;
    const postings = new Map<string, Posting>();
    terms.forEach((term, id) => {
      const positions = positionsOf[id] as number[];
      const packedCounts = packedCountsOf[id] as number[];
      const idf = Math.log(1 + (count - positions.length + 0.5) / (positions.length + 0.5));
      const impacts = new Float32Array(positions.length);
      for (let index = 0; index < positions.length; index++) {
        const position = positions[index] as number;
        const packed = packedCounts[index] as number;
        let tf = 0;
        for (let field = 0; field < FIELD_COUNT; field++) {
          const occurrences = (packed >>> (field * COUNT_BITS)) & MAX_COUNT;
          if (occurrences === 0) continue;
          const { weight, b } = fields[field] as FieldParameters;
          const relativeLength =
            (lengths[position * FIELD_COUNT + field] as number) / (averageLengths[field] as number);
          tf += (weight * occurrences) / (1 - b + b * relativeLength);
        }
        impacts[index] = (idf * tf * (k1 + 1)) / (tf + k1);
      }
      postings.set(term, { positions: Uint32Array.from(positions), impacts });
    });
    this.postings = postings;
    this.vocabulary = terms.filter((term) => !term.startsWith(SURFACE_MARK)).sort();
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
    for (const [term, share] of this.queryTerms(query)) {
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

  /**
   * The index terms a query stands for, each with the share of its score it
   * counts: the query's own terms (1), the longer words they begin and the
   * shorter words that begin them (abbreviations), related action words, and
   * the exact surface forms. A term reached several ways counts once, at its
   * best share (two words for "create" do not count it twice).
   */
  private queryTerms(query: string): Map<string, number> {
    const {
      prefixShare,
      abbreviationShare,
      relatedShare,
      surfaceShare,
      literalShare,
      questionShare,
      valueShare,
    } = this.parameters;
    const shares = new Map<string, number>();
    const offer = (term: string, share: number): void => {
      if (share > (shares.get(term) ?? 0) && this.postings.has(term)) shares.set(term, share);
    };
    const literals = queryLiterals(query);
    // The words inside a pasted value (`notes` of `notes.md`) count valueShare of ordinary words.
    for (const [text, scale] of [
      [literals.words, 1],
      [literals.values, valueShare],
    ] as const) {
      for (const term of new Set(searchTerms(text))) {
        offer(term, scale);
        if (term.length >= MIN_PREFIX_LENGTH) {
          for (const longer of this.longerTerms(term)) offer(longer, prefixShare * scale);
          for (let length = MIN_PREFIX_LENGTH; length < term.length; length++) {
            offer(term.slice(0, length), abbreviationShare * scale);
          }
        }
        for (const related of relatedTerms(term)) offer(related, relatedShare * scale);
      }
      for (const surface of surfaceTerms(text)) offer(surface, surfaceShare * scale);
    }
    for (const kind of literals.kinds) offer(kind, literalShare);
    // A question's reading actions only narrow what its own words found ("what about them" finds nothing).
    if (shares.size > 0) for (const action of questionTerms(query)) offer(action, questionShare);
    return shares;
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

  /** Index terms that start with `prefix` and are longer (at most a few). */
  private longerTerms(prefix: string): string[] {
    const { vocabulary } = this;
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((vocabulary[middle] as string) <= prefix) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (let index = low; index < vocabulary.length && found.length < MAX_PREFIX_EXPANSIONS; index++) {
      const term = vocabulary[index] as string;
      if (!term.startsWith(prefix)) break;
      found.push(term);
    }
    return found;
  }
}
