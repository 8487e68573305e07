/**
 * Words too common in tool descriptions and requests to tell tools apart.
 * Kept short: verbs and nouns stay, whatever they are.
 */
const STOP_WORDS = new Set(
  (
    "a an the and or of to in on for from with by at as is are be been was were it its this that these those " +
    "i me my we our you your he she they them their his her can could would should will shall may might must " +
    "do does did done please want need like some any all into onto about over up out so than then there here " +
    "what which who whom whose how when where why if not no yes just also only very via per using use"
  ).split(" "),
);

/** Light suffix stripping (plural, -ing, -ed, -ies): enough for `files`/`file`, `listing`/`list`, `created`/`create`. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ing") && hasVowel(word.slice(0, -3)) && word.length > 6) {
    return trimDouble(word.slice(0, -3));
  }
  if (word.endsWith("ied")) return `${word.slice(0, -3)}y`;
  if (word.endsWith("ed") && !word.endsWith("eed") && word.length > 5) return trimDouble(word.slice(0, -2));
  if (/(?:ch|sh|x|ss|zz)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return dropSilentE(word.slice(0, -1));
  return dropSilentE(word);
}

function hasVowel(word: string): boolean {
  return /[aeiouy]/.test(word);
}

/** `runn` → `run`, `stopp` → `stop` (a doubled consonant left by -ing/-ed). */
function trimDouble(word: string): string {
  const last = word.at(-1);
  if (word.length > 3 && last === word.at(-2) && last !== undefined && !"aeioulsz".includes(last)) {
    return word.slice(0, -1);
  }
  return dropSilentE(word);
}

/** `create` and `creat(ed)` meet at `creat`; `delete` and `delet(ing)` at `delet`. */
function dropSilentE(word: string): string {
  return word.length > 4 && word.endsWith("e") && !word.endsWith("ee") ? word.slice(0, -1) : word;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The search terms of `text`: words split at spaces and punctuation, at
 * `snake_case`, `kebab-case` and `camelCase` boundaries, lower-cased, stop
 * words dropped, lightly stemmed. Identifiers also keep their whole form
 * (`getUser` gives `getus`… no: `get`, `user` and `getuser`), so a query
 * naming a tool exactly still matches it best.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of text.match(WORD) ?? []) {
    let known = tokenTerms.get(token);
    if (!known) {
      known = termsOfToken(token);
      if (tokenTerms.size >= MAX_MEMO) tokenTerms.clear();
      tokenTerms.set(token, known);
    }
    for (const term of known) terms.push(term);
  }
  return terms;
}

/** Tokens already turned into terms (catalogues repeat their words a lot). */
const tokenTerms = new Map<string, readonly string[]>();
const MAX_MEMO = 50_000;

function termsOfToken(token: string): string[] {
  const terms: string[] = [];
  if (!/\p{Lu}/u.test(token)) {
    addTerm(terms, token);
    return terms;
  }
  const parts = token
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .split(" ");
  for (const part of parts) addTerm(terms, part);
  // `GitHub`, `PostgreSQL`: also the whole word, which a user types in one piece.
  if (parts.length > 1) addTerm(terms, token.toLowerCase());
  return terms;
}

function addTerm(terms: string[], word: string): void {
  if (word.length === 0 || STOP_WORDS.has(word)) return;
  terms.push(stem(word));
}

/**
 * Everyday words for the actions tools perform, grouped: a query word of a
 * group also matches the group's other words (at a reduced weight), so
 * "remove the volume" finds `delete_volume` and "find the page" finds
 * `search_page`. Generic English, not any catalogue's vocabulary.
 */
const ACTION_GROUPS: readonly (readonly string[])[] = [
  ["create", "add", "new", "make", "start", "launch", "raise", "submit", "register", "insert", "open"],
  [
    "delete",
    "remove",
    "drop",
    "kill",
    "terminate",
    "cancel",
    "deactivate",
    "erase",
    "destroy",
    "forget",
    "purge",
  ],
  [
    "update",
    "change",
    "edit",
    "modify",
    "set",
    "rename",
    "bump",
    "scale",
    "resize",
    "turn",
    "mark",
    "resolve",
    "close",
  ],
  ["get", "show", "fetch", "retrieve", "view", "read", "look", "see", "detail", "display", "check"],
  ["list", "show", "all", "browse", "enumerate", "view"],
  ["search", "find", "look", "query", "lookup", "filter", "seek"],
  ["export", "download", "dump", "backup"],
  ["send", "post", "text", "email", "message", "notify", "tell"],
];

const relatedByTerm: ReadonlyMap<string, readonly string[]> = (() => {
  const related = new Map<string, Set<string>>();
  for (const group of ACTION_GROUPS) {
    const stems = group.map(stem);
    for (const term of stems) {
      let others = related.get(term);
      if (!others) {
        others = new Set();
        related.set(term, others);
      }
      for (const other of stems) if (other !== term) others.add(other);
    }
  }
  return new Map([...related].map(([term, others]) => [term, [...others]]));
})();

/** The action words related to `term` (a search term), if it is one. */
export function relatedTerms(term: string): readonly string[] {
  return relatedByTerm.get(term) ?? [];
}
