// The BM25F postings of a tool catalogue, built once: per term, the tools
// containing it and the score it gives each (each field's count weighted and
// normalised by that field's length, saturated once).
import type { Tool } from "../tool/tool.js";
import { SURFACE_MARK } from "./search-terms.js";
import { FIELD_COUNT, FIELDS, writeDocument } from "./tool-search-document.js";
import type { FieldParameters, ToolSearchParameters } from "./tool-search-parameters.js";

/** The precomputed score contribution of one term to each tool containing it. */
export interface Posting {
  readonly positions: Uint32Array;
  readonly impacts: Float32Array;
}

/** A catalogue's postings, its vocabulary and the stems of each tool's name. */
export interface CataloguePostings {
  /** Each index term's posting. */
  readonly postings: ReadonlyMap<string, Posting>;
  /** Every index term but the surface forms, sorted (for prefix matches). */
  readonly vocabulary: readonly string[];
  /** The stems of each tool's name, by position. */
  readonly names: readonly (readonly string[])[];
}

/** Bits of a term's count in one field, packed per field into one integer (7 × 4 bits: a small integer). */
const COUNT_BITS = 4;
const MAX_COUNT = (1 << COUNT_BITS) - 1;

/** The postings of `tools` under `parameters`. */
export function buildPostings(tools: readonly Tool[], parameters: ToolSearchParameters): CataloguePostings {
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
  const vocabulary = terms.filter((term) => !term.startsWith(SURFACE_MARK)).sort();
  return { postings, vocabulary, names };
}
