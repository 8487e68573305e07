// The search terms of a text: words split at punctuation and identifier
// boundaries, stop words dropped, lightly stemmed, and the acronyms of a name.
import { stem } from "./word-stem.js";

/**
 * Words too common in tool descriptions and requests to tell tools apart,
 * and the filler of a spoken request. Kept short: verbs and nouns stay,
 * whatever they are.
 */
const STOP_WORDS = new Set(
  (
    "a an the and or of to in on for from with by at as is are be been was were it its this that these those " +
    "i me my we our you your he she they them their his her can could would should will shall may might must " +
    "do does did done please want need like some any all into onto about over up out so than then there here " +
    "what which who whom whose how when where why if not no yes just also only very via per using use " +
    // Request filler ("hey, could you quickly …, thanks"):
    "let lets kindly thanks thank hey hi hello ok okay something anything stuff whatever really actually quickly"
  ).split(" "),
);

/** A word, with its clitic if it has one (`sendgrid's`, `don't`, `we'll`). */
const WORD = /[\p{L}\p{N}]+(?:['\u2019]\p{L}+)?/gu;

/**
 * English clitics that add nothing to a word's meaning: the possessive or
 * contracted `'s` (`sendgrid's` is `sendgrid`), `'d`, `'m`, `'ll`, `'re`,
 * `'ve`. A word ending in `n't` (`don't`, `isn't`) is a negated auxiliary
 * and gives no term at all.
 */
const CLITICS = new Set(["s", "d", "m", "ll", "re", "ve"]);

/** The search terms of a word, and its surface form when stemming changed it (`=files` beside `file`). */
interface TokenTerms {
  readonly stems: readonly string[];
  readonly surfaces: readonly string[];
  /** The first letters of its words that are not stop words (`pullRequest`: `pr`). */
  readonly initials: string;
}

/** Marks a surface-form term, so it never meets a stem. */
export const SURFACE_MARK = "=";

/**
 * The search terms of `text`: words split at spaces and punctuation, at
 * `snake_case`, `kebab-case` and `camelCase` boundaries, lower-cased, stop
 * words dropped, lightly stemmed. Identifiers also keep their whole form
 * (`getUser` gives `getus`… no: `get`, `user` and `getuser`), so a query
 * naming a tool exactly still matches it best.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of text.match(WORD) ?? []) for (const term of termsOf(token).stems) terms.push(term);
  return terms;
}

/**
 * The surface forms of `text`'s words that stemming changed, marked with
 * {@link SURFACE_MARK} (`"open files"` gives `["=files"]`): an exact form
 * counts a little more than its stem alone (`images` is nearer to "list
 * images" than to "get an image").
 */
export function surfaceTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of text.match(WORD) ?? []) for (const term of termsOf(token).surfaces) terms.push(term);
  return terms;
}

/**
 * Appends the stems of `text` and then their surface forms to `terms`
 * ({@link searchTerms} and {@link surfaceTerms} in one pass); returns how
 * many stems it appended.
 */
export function appendIndexTerms(text: string, terms: string[]): number {
  const start = terms.length;
  let surfaces: string[] | undefined;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    const known = termsOf(match[0]);
    for (const term of known.stems) terms.push(term);
    if (known.surfaces.length > 0) {
      surfaces ??= [];
      surfaces.push(...known.surfaces);
    }
  }
  const stems = terms.length - start;
  if (surfaces) for (const term of surfaces) terms.push(term);
  return stems;
}

function termsOf(token: string): TokenTerms {
  let known = tokenTerms.get(token);
  if (!known) {
    known = termsOfToken(token);
    if (tokenTerms.size >= MAX_MEMO) tokenTerms.clear();
    tokenTerms.set(token, known);
  }
  return known;
}

/** Tokens already turned into terms (catalogues repeat their words a lot). */
const tokenTerms = new Map<string, TokenTerms>();
const MAX_MEMO = 50_000;

const NO_TERMS: TokenTerms = { stems: [], surfaces: [], initials: "" };

function termsOfToken(token: string): TokenTerms {
  const apostrophe = token.search(/['\u2019]/);
  if (apostrophe >= 0) {
    const clitic = token.slice(apostrophe + 1).toLowerCase();
    if (clitic === "t") return NO_TERMS;
    const base = termsOf(token.slice(0, apostrophe));
    if (CLITICS.has(clitic)) return base;
    // `o'clock`, `O'Brien`: two words.
    const second = termsOf(token.slice(apostrophe + 1));
    return {
      stems: [...base.stems, ...second.stems],
      surfaces: [...base.surfaces, ...second.surfaces],
      initials: base.initials + second.initials,
    };
  }
  const parts = wordsOf(token);
  const terms: TokenTerms = {
    stems: [],
    surfaces: [],
    initials: parts
      .filter((part) => part.length > 0 && !STOP_WORDS.has(part))
      .map((part) => part[0])
      .join(""),
  };
  for (const part of parts) addTerm(terms, part);
  // `GitHub`, `PostgreSQL`: also the whole word, which a user types in one piece.
  if (parts.length > 1) addTerm(terms, token.toLowerCase());
  return terms;
}

/** The lower-cased words of one token, split at `camelCase` boundaries. */
function wordsOf(token: string): string[] {
  if (!/\p{Lu}/u.test(token)) return [token];
  return token
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .split(" ");
}

function addTerm(terms: TokenTerms, word: string): void {
  if (word.length === 0 || STOP_WORDS.has(word)) return;
  const stemmed = stem(word);
  (terms.stems as string[]).push(stemmed);
  if (stemmed !== word) (terms.surfaces as string[]).push(`${SURFACE_MARK}${word}`);
}

/**
 * Acronyms of an identifier's inner multi-word phrases, as users abbreviate
 * them: `get_pull_request_files` gives `pr` (pull request), `rf` and `prf`.
 * The first word (usually a verb or a service prefix) takes no part, so
 * `create_issue` gives none.
 */
export function acronymTerms(name: string): string[] {
  let initials = "";
  for (const token of name.match(WORD) ?? []) initials += termsOf(token).initials;
  const acronyms: string[] = [];
  for (let start = 1; start < initials.length - 1; start++) {
    acronyms.push(initials.slice(start, start + 2));
    if (start + 3 <= initials.length) acronyms.push(initials.slice(start, start + 3));
  }
  return acronyms;
}
