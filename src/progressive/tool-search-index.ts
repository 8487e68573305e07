import type { Tool } from "../tool/tool.js";
import { isNestedTool } from "../tool/unfolding.js";
import { relatedTerms, searchTerms } from "./search-terms.js";

/** One match of a {@link ToolSearchIndex} search. */
export interface ToolSearchHit {
  /** The matching tool, as given to the index. */
  readonly tool: Tool;
  /** Its position in the index's tool list. */
  readonly position: number;
  /** The relevance score (higher is better; only comparable within one search). */
  readonly score: number;
}

/** BM25 saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** Field weights: a word in the name counts three times one in the description. */
const NAME_WEIGHT = 3;
const DESCRIPTION_WEIGHT = 1;
const PARAMETER_NAME_WEIGHT = 1;
const PARAMETER_DESCRIPTION_WEIGHT = 0.5;
/** A nested facade's children's names and descriptions (so a facade is found by what it unfolds into). */
const CHILD_WEIGHT = 0.5;
/** A query word also matches longer index words it begins (`repo` → `repository`), at this share of the score. */
const PREFIX_SHARE = 0.5;
const MIN_PREFIX_LENGTH = 3;
const MAX_PREFIX_EXPANSIONS = 16;
/** A related action word (`remove` for `delete`) counts this share of the word itself. */
const RELATED_SHARE = 0.6;

/** The precomputed score contribution of one term to each tool containing it. */
interface Posting {
  readonly positions: Uint32Array;
  readonly impacts: Float32Array;
}

type Field = readonly [text: string, weight: number];

function propertiesOf(tool: Tool): Readonly<Record<string, { description?: unknown }>> {
  const properties = tool.definition.inputSchema.jsonSchema.properties;
  return typeof properties === "object" && properties !== null
    ? (properties as Record<string, { description?: unknown }>)
    : {};
}

/** The weighted text fields of a tool's search document. */
function fieldsOf(tool: Tool): Field[] {
  const { name, description } = tool.definition;
  const fields: Field[] = [
    [name, NAME_WEIGHT],
    [description, DESCRIPTION_WEIGHT],
  ];
  for (const [parameter, schema] of Object.entries(propertiesOf(tool))) {
    fields.push([parameter, PARAMETER_NAME_WEIGHT]);
    if (typeof schema?.description === "string")
      fields.push([schema.description, PARAMETER_DESCRIPTION_WEIGHT]);
  }
  if (isNestedTool(tool)) {
    for (const child of tool.innerTools) {
      fields.push([`${child.definition.name} ${child.definition.description}`, CHILD_WEIGHT]);
    }
  }
  return fields;
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
  private readonly postings: ReadonlyMap<string, Posting>;
  /** Every index term, sorted (for prefix matches). */
  private readonly vocabulary: readonly string[];
  /** Scratch space reused by every search (searches are synchronous). */
  private readonly scores: Float64Array;
  private readonly touched: Uint32Array;

  private constructor(tools: readonly Tool[]) {
    this.tools = tools;
    const count = tools.length;
    const lengths = new Float64Array(count);
    // One builder per term: the tools containing it and the term's weighted frequency in each.
    const termIds = new Map<string, number>();
    const terms: string[] = [];
    const positionsOf: number[][] = [];
    const frequenciesOf: number[][] = [];
    let totalLength = 0;
    for (let position = 0; position < count; position++) {
      let length = 0;
      for (const [text, weight] of fieldsOf(tools[position] as Tool)) {
        for (const term of searchTerms(text)) {
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
            frequencies[last] = (frequencies[last] as number) + weight;
          else {
            positions.push(position);
            frequencies.push(weight);
          }
          length += weight;
        }
      }
      lengths[position] = length;
      totalLength += length;
    }
    const averageLength = count > 0 && totalLength > 0 ? totalLength / count : 1;
    const postings = new Map<string, Posting>();
    terms.forEach((term, id) => {
      const positions = positionsOf[id] as number[];
      const frequencies = frequenciesOf[id] as number[];
      const idf = Math.log(1 + (count - positions.length + 0.5) / (positions.length + 0.5));
      const impacts = new Float32Array(positions.length);
      for (let index = 0; index < positions.length; index++) {
        const tf = frequencies[index] as number;
        const norm = K1 * (1 - B + (B * (lengths[positions[index] as number] as number)) / averageLength);
        impacts[index] = (idf * (tf * (K1 + 1))) / (tf + norm);
      }
      postings.set(term, { positions: Uint32Array.from(positions), impacts });
    });
    this.postings = postings;
    this.vocabulary = terms.sort();
    this.scores = new Float64Array(count);
    this.touched = new Uint32Array(count);
  }

  /** An index over `tools` (kept in their order; ties rank in that order). */
  static of(tools: readonly Tool[]): ToolSearchIndex {
    return new ToolSearchIndex([...tools]);
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
    const terms = new Set(searchTerms(query));
    for (const term of terms) {
      const exact = this.postings.get(term);
      if (exact) add(exact, 1);
      if (term.length >= MIN_PREFIX_LENGTH) {
        for (const longer of this.longerTerms(term)) add(this.postings.get(longer) as Posting, PREFIX_SHARE);
      }
      for (const related of relatedTerms(term)) {
        const posting = terms.has(related) ? undefined : this.postings.get(related);
        if (posting) add(posting, RELATED_SHARE);
      }
    }
    const hits = this.best(touchedCount, limit);
    for (let index = 0; index < touchedCount; index++) scores[touched[index] as number] = 0;
    return hits;
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
