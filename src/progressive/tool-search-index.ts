import type { Tool } from "../tool/tool.js";
import { isNestedTool } from "../tool/unfolding.js";
import {
  acronymTerms,
  appendIndexTerms,
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

/** One match of a {@link ToolSearchIndex} search. */
export interface ToolSearchHit {
  /** The matching tool, as given to the index. */
  readonly tool: Tool;
  /** Its position in the index's tool list. */
  readonly position: number;
  /** The relevance score (higher is better; only comparable within one search). */
  readonly score: number;
}

const MIN_PREFIX_LENGTH = 3;
const MAX_PREFIX_EXPANSIONS = 16;
/** How many tools must share a name's first word for it to be a namespace. */
const MIN_NAMESPACE_TOOLS = 3;

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
] as const;
type FieldName = (typeof FIELDS)[number];
const FIELD_COUNT = FIELDS.length;

function propertiesOf(tool: Tool): Readonly<Record<string, { description?: unknown }>> {
  const properties = tool.definition.inputSchema.jsonSchema.properties;
  return typeof properties === "object" && properties !== null
    ? (properties as Record<string, { description?: unknown }>)
    : {};
}

/** The text of each field of a tool's search document (acronyms are derived from the name). */
function fieldTexts(tool: Tool): Record<Exclude<FieldName, "acronyms">, string> {
  const { name, description } = tool.definition;
  const parameterNames: string[] = [];
  const parameterDescriptions: string[] = [];
  for (const [parameter, schema] of Object.entries(propertiesOf(tool))) {
    parameterNames.push(parameter);
    if (typeof schema?.description === "string") parameterDescriptions.push(schema.description);
  }
  const children = isNestedTool(tool)
    ? tool.innerTools.map((child) => `${child.definition.name} ${child.definition.description}`)
    : [];
  return {
    name,
    description,
    parameterNames: parameterNames.join(" "),
    parameterDescriptions: parameterDescriptions.join(" "),
    children: children.join(" "),
  };
}

/** A tool's search document: each field's terms (stems, their surface forms, acronyms) and length in stems. */
interface Document {
  readonly terms: string[][];
  readonly lengths: number[];
}

function documentOf(tool: Tool): Document {
  const texts = fieldTexts(tool);
  const terms: string[][] = [];
  const lengths: number[] = [];
  for (const field of FIELDS) {
    if (field === "acronyms") {
      const acronyms = acronymTerms(texts.name);
      terms.push(acronyms);
      lengths.push(acronyms.length);
    } else {
      const fieldTerms: string[] = [];
      lengths.push(appendIndexTerms(texts[field], fieldTerms));
      terms.push(fieldTerms);
    }
  }
  return { terms, lengths };
}

/**
 * The namespaces of a catalogue: the first word of tool names
 * (`slack_post_message`, `gitStatus`) that at least {@link MIN_NAMESPACE_TOOLS}
 * tools share, never occurs later in a name, and is not an action word
 * (`create_issue`, `get_file` name no service).
 */
function namespacesOf(tools: readonly Tool[]): [Map<string, number>, Int32Array] {
  const firstWords = tools.map(
    (tool) => searchTerms(tool.definition.name.split(/[^\p{L}\p{N}]|(?<=\p{Ll})(?=\p{Lu})/u)[0] ?? "")[0],
  );
  const later = new Set<string>();
  const counts = new Map<string, number>();
  tools.forEach((tool, position) => {
    const first = firstWords[position];
    if (first !== undefined) counts.set(first, (counts.get(first) ?? 0) + 1);
    for (const term of searchTerms(tool.definition.name).slice(1)) if (term !== first) later.add(term);
  });
  const namespaces = new Map<string, number>();
  for (const [word, count] of counts) {
    if (count >= MIN_NAMESPACE_TOOLS && !later.has(word) && relatedTerms(word).length === 0) {
      namespaces.set(word, namespaces.size);
    }
  }
  const namespaceOf = Int32Array.from(firstWords, (word) =>
    word === undefined ? -1 : (namespaces.get(word) ?? -1),
  );
  return [namespaces, namespaceOf];
}

/** The text an embedding model sees for `tool`: name, description and parameter names. */
export function toolDocumentText(tool: Tool): string {
  const { name, description } = tool.definition;
  const parameters = Object.keys(propertiesOf(tool));
  return `${name}: ${description}${parameters.length > 0 ? ` (parameters: ${parameters.join(", ")})` : ""}`;
}

/**
 * A lexical search index over any list of tools (MCP tools, tool objects,
 * nested facades): BM25 over each tool's name, description and parameter
 * names and descriptions, with `camelCase` / `snake_case` split and light
 * stemming. Everything is computed once, when the index is built: a search
 * tokenises only the query and adds up precomputed per-tool scores.
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

  private constructor(tools: readonly Tool[], parameters: ToolSearchParameters) {
    this.tools = tools;
    this.parameters = parameters;
    const count = tools.length;
    // First the terms of each tool's fields and the fields' lengths…
    const documents = tools.map(documentOf);
    const averageLengths = new Float64Array(FIELD_COUNT);
    for (const { lengths } of documents) {
      for (let field = 0; field < FIELD_COUNT; field++) {
        averageLengths[field] = (averageLengths[field] as number) + (lengths[field] as number) / count;
      }
    }
    // …then BM25F: each occurrence weighted by its field and normalised by that field's length, saturated once.
    const fields = FIELDS.map((field) => parameters[field]);
    const termIds = new Map<string, number>();
    const terms: string[] = [];
    const positionsOf: number[][] = [];
    const frequenciesOf: number[][] = [];
    documents.forEach(({ terms: documentTerms, lengths }, position) => {
      documentTerms.forEach((fieldTerms, field) => {
        const { weight, b } = fields[field] as FieldParameters;
        const average = (averageLengths[field] as number) || 1;
        const share = weight / (1 - b + (b * (lengths[field] as number)) / average);
        for (const term of fieldTerms) {
          let id = termIds.get(term);
          if (id === undefined) {
            id = terms.length;
            termIds.set(term, id);
            terms.push(term);
            positionsOf.push([]);
            frequenciesOf.push([]);
          }
          const positions = positionsOf[id] as number[];
          const frequencies = frequenciesOf[id] as number[];
          const last = positions.length - 1;
          if (last >= 0 && positions[last] === position)
            frequencies[last] = (frequencies[last] as number) + share;
          else {
            positions.push(position);
            frequencies.push(share);
          }
        }
      });
    });
    const { k1 } = parameters;
    const postings = new Map<string, Posting>();
    terms.forEach((term, id) => {
      const positions = positionsOf[id] as number[];
      const frequencies = frequenciesOf[id] as number[];
      const idf = Math.log(1 + (count - positions.length + 0.5) / (positions.length + 0.5));
      const impacts = new Float32Array(positions.length);
      for (let index = 0; index < positions.length; index++) {
        const tf = frequencies[index] as number;
        impacts[index] = (idf * tf * (k1 + 1)) / (tf + k1);
      }
      postings.set(term, { positions: Uint32Array.from(positions), impacts });
    });
    this.postings = postings;
    this.vocabulary = terms.filter((term) => !term.startsWith(SURFACE_MARK)).sort();
    this.scores = new Float64Array(count);
    this.touched = new Uint32Array(count);
    [this.namespaces, this.namespaceOf] = namespacesOf(tools);
  }

  /** An index over `tools` (kept in their order; ties rank in that order). */
  static of(tools: readonly Tool[]): ToolSearchIndex {
    return new ToolSearchIndex([...tools], DEFAULT_TOOL_SEARCH_PARAMETERS);
  }

  /** An index ranking with other constants (internal: for the benchmark's parameter sweep). */
  static withParameters(tools: readonly Tool[], parameters: ToolSearchParameters): ToolSearchIndex {
    return new ToolSearchIndex([...tools], parameters);
  }

  /** How many tools are indexed. */
  get size(): number {
    return this.tools.length;
  }

  /** The best `limit` matches of `query`, best first; none when no query word occurs in any tool. */
  search(query: string, limit: number): ToolSearchHit[] {
    if (limit < 1) return [];
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
    for (const term of searchTerms(query)) {
      const namespace = this.namespaces.get(term);
      if (namespace !== undefined) named.add(namespace);
    }
    if (named.size > 0) {
      const factor = 1 + this.parameters.namespaceBoost;
      for (let index = 0; index < touchedCount; index++) {
        const position = touched[index] as number;
        if (named.has(this.namespaceOf[position] as number))
          scores[position] = (scores[position] as number) * factor;
      }
    }
    const hits = this.best(touchedCount, limit);
    for (let index = 0; index < touchedCount; index++) scores[touched[index] as number] = 0;
    return hits;
  }

  /**
   * The index terms a query stands for, each with the share of its score it
   * counts: the query's own terms (1), the longer words they begin and the
   * shorter words that begin them (abbreviations), related action words, and
   * the exact surface forms. A term reached several ways counts once, at its
   * best share (two words for "create" do not count it twice).
   */
  private queryTerms(query: string): Map<string, number> {
    const { prefixShare, abbreviationShare, relatedShare, surfaceShare } = this.parameters;
    const shares = new Map<string, number>();
    const offer = (term: string, share: number): void => {
      if (share > (shares.get(term) ?? 0) && this.postings.has(term)) shares.set(term, share);
    };
    const stems = new Set(searchTerms(query));
    for (const term of stems) {
      offer(term, 1);
      if (term.length >= MIN_PREFIX_LENGTH) {
        for (const longer of this.longerTerms(term)) offer(longer, prefixShare);
        for (let length = MIN_PREFIX_LENGTH; length < term.length; length++) {
          offer(term.slice(0, length), abbreviationShare);
        }
      }
      for (const related of relatedTerms(term)) offer(related, relatedShare);
    }
    for (const surface of surfaceTerms(query)) offer(surface, surfaceShare);
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
