// What a request reaches in the index: its own terms and their expansions
// (prefixes, abbreviations, related action words, surface forms, the kinds
// of its pasted values, a question's reading actions), each at its share.
import { questionTerms, relatedTerms } from "./action-words.js";
import { queryLiterals } from "./query-literals.js";
import { searchTerms, surfaceTerms } from "./search-terms.js";
import type { ToolSearchParameters } from "./tool-search-parameters.js";

const MIN_PREFIX_LENGTH = 3;
const MAX_PREFIX_EXPANSIONS = 16;

/**
 * The index terms a query stands for, each with the share of its score it
 * counts: the query's own terms (1), the longer words they begin and the
 * shorter words that begin them (abbreviations), related action words, and
 * the exact surface forms. A term reached several ways counts once, at its
 * best share (two words for "create" do not count it twice). Only terms in
 * `postings` are kept; `vocabulary` is the index's sorted terms.
 */
export function queryTermShares(
  query: string,
  parameters: ToolSearchParameters,
  postings: ReadonlyMap<string, unknown>,
  vocabulary: readonly string[],
): Map<string, number> {
  const {
    prefixShare,
    abbreviationShare,
    relatedShare,
    surfaceShare,
    literalShare,
    questionShare,
    valueShare,
  } = parameters;
  const shares = new Map<string, number>();
  const offer = (term: string, share: number): void => {
    if (share > (shares.get(term) ?? 0) && postings.has(term)) shares.set(term, share);
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
        for (const longer of longerTerms(vocabulary, term)) offer(longer, prefixShare * scale);
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

/** Terms of `vocabulary` (sorted) that start with `prefix` and are longer (at most a few). */
function longerTerms(vocabulary: readonly string[], prefix: string): string[] {
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
