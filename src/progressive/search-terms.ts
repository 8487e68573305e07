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

/**
 * Past forms of common English irregular verbs and their base (a standard
 * grammar-book list, not any catalogue's words): `sent` meets `send`,
 * `paid` meets `pay`, `chosen` meets `choose`.
 */
const IRREGULAR_VERBS: ReadonlyMap<string, string> = new Map(
  (
    "began:begin begun:begin bought:buy broke:break broken:break brought:bring built:build caught:catch " +
    "chose:choose chosen:choose came:come dealt:deal drew:draw drawn:draw drove:drive driven:drive ate:eat " +
    "eaten:eat fell:fall fallen:fall fed:feed felt:feel fought:fight found:find flew:fly flown:fly " +
    "forgot:forget forgotten:forget froze:freeze frozen:freeze gave:give given:give went:go gone:go " +
    "got:get gotten:get grew:grow grown:grow heard:hear held:hold hid:hide hidden:hide kept:keep " +
    "knew:know known:know laid:lay led:lead left:leave lent:lend lost:lose made:make meant:mean met:meet " +
    "paid:pay ran:run rang:ring rung:ring rode:ride ridden:ride rose:rise risen:rise said:say saw:see " +
    "seen:see sought:seek sold:sell sent:send shook:shake shaken:shake shot:shoot shown:show sang:sing " +
    "sung:sing sat:sit slept:sleep spoke:speak spoken:speak spent:spend spun:spin stood:stand stole:steal " +
    "stolen:steal stuck:stick struck:strike swore:swear sworn:swear swept:sweep swam:swim swum:swim " +
    "took:take taken:take taught:teach tore:tear torn:tear told:tell thought:think threw:throw " +
    "thrown:throw understood:understand woke:wake woken:wake wore:wear worn:wear won:win wound:wind " +
    "withdrew:withdraw withdrawn:withdraw wrote:write written:write"
  )
    .split(" ")
    .map((pair) => pair.split(":") as [string, string]),
);

/**
 * Light suffix stripping (plural, -ing, -ed, -ies): enough for `files`/`file`,
 * `listing`/`list`, `created`/`create`; irregular past forms go to their base
 * (`sent` → `send`).
 */
export function stem(word: string): string {
  const base = IRREGULAR_VERBS.get(word);
  if (base !== undefined) return stem(base);
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

function termsOfToken(token: string): TokenTerms {
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

/**
 * Everyday words for the actions tools perform, grouped: a query word of a
 * group also matches the group's other words (at a reduced weight), so
 * "remove the volume" finds `delete_volume` and "find the page" finds
 * `search_page`. Generic English, not any catalogue's vocabulary.
 */
const DESTRUCTIVE_ACTIONS: readonly string[] = [
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
];

const ACTION_GROUPS: readonly (readonly string[])[] = [
  ["create", "add", "new", "make", "start", "launch", "raise", "submit", "register", "insert", "open"],
  DESTRUCTIVE_ACTIONS,
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
  ["upload", "attach", "import"],
  ["write", "save", "store", "persist"],
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

/**
 * Common file extensions (documents, data, code, media): a query word like
 * `notes.md` or `config/settings.yaml` names a file. Generic, not any
 * catalogue's vocabulary.
 */
const FILE_EXTENSIONS = new Set(
  (
    "txt md markdown rst pdf doc docx odt rtf csv tsv xls xlsx json jsonl yaml yml toml ini cfg conf env xml " +
    "html htm css scss js mjs cjs jsx ts tsx py rb go rs java kt c h cpp hpp cs php swift sh bash sql log lock " +
    "png jpg jpeg gif svg webp ico bmp tiff mp3 wav ogg flac mp4 mov avi mkv webm zip tar gz tgz bz2 7z rar dmg " +
    "iso exe bin wasm ipynb parquet avro db sqlite"
  ).split(" "),
);

/**
 * Top-level domains a host name ends with (`example.com`): such a word is a
 * web address, not a file.
 */
const WEB_DOMAINS = new Set("com org net io dev app ai co edu gov info biz me us uk de eu".split(" "));

/** The kinds of value a literal word is (`url`; `email`; `id` and `number`; `file` and `path`), none for an ordinary word. */
function literalKinds(token: string): readonly string[] {
  if (/^[a-z][a-z0-9+.-]*:\/\/\S/i.test(token) || /^www\.\S/i.test(token)) return ["url"];
  if (/^[^\s@]+@[^\s@]+\.\p{L}{2,}$/u.test(token)) return ["email"];
  if (/^#?\d+$/.test(token)) return ["id", "number"];
  const extension = /^[\p{L}\p{N}_~./\\-]*[\p{L}\p{N}_-]\.(\p{L}[\p{L}\p{N}]{0,8})$/u
    .exec(token)?.[1]
    ?.toLowerCase();
  if (extension !== undefined && WEB_DOMAINS.has(extension) && !token.includes("/")) return ["url"];
  if (
    (extension !== undefined && FILE_EXTENSIONS.has(extension)) ||
    /^(?:~|\.{1,2})?\/[\p{L}\p{N}_.-]/u.test(token) ||
    // `a/b/c` or `src/`; a bare `a/b` is as often a branch or "and/or" as a path.
    /^[\p{L}\p{N}_.-]+(?:\/[\p{L}\p{N}_.-]+){2,}\/?$|^[\p{L}\p{N}_.-]+\/$/u.test(token)
  ) {
    return ["file", "path"];
  }
  return [];
}

const OPENING_MARKS = new Set("(\"'`<[");
const CLOSING_MARKS = new Set(")\"'`>],.;:!?");

/**
 * `word` without the brackets and quotes before it and the punctuation after
 * it (`("notes.md"),` → `notes.md`). Index loops, not a regex: a word of
 * 100,000 `)` followed by a letter made the regex quadratic.
 */
function stripWrapping(word: string): string {
  let start = 0;
  while (start < word.length && OPENING_MARKS.has(word[start] as string)) start++;
  let end = word.length;
  while (end > start && CLOSING_MARKS.has(word[end - 1] as string)) end--;
  return start === 0 && end === word.length ? word : word.slice(start, end);
}

/** A query split into its ordinary words and its literal values (URLs, e-mail addresses, file paths). */
export interface QueryLiterals {
  /** The query without its literals. */
  readonly words: string;
  /** The literals, space-separated (`notes.md https://example.com`). */
  readonly values: string;
  /**
   * The kinds of the literals, as the words tool parameters use for them
   * (search terms, each once): a URL or host name (`https://…`,
   * `example.com`) is a `url`, an e-mail address an `email`, a whole number
   * (`42`, `#42`) an `id` and a `number`, a file name or
   * path (`notes.md`, `src/index.ts`, `./data`) a `file` and a `path`.
   */
  readonly kinds: readonly string[];
}

/**
 * Finds the literal values in a query: a user pastes a value (`open
 * https://…`, `what's in config/settings.yaml`) where a tool's description
 * names its kind, and the words inside a value say little about the task.
 */
export function queryLiterals(text: string): QueryLiterals {
  const kinds = new Set<string>();
  const words: string[] = [];
  const values: string[] = [];
  for (const word of text.split(/\s+/)) {
    const token = stripWrapping(word);
    const found = token.length > 0 ? literalKinds(token) : [];
    if (found.length === 0) words.push(word);
    else {
      values.push(token);
      for (const kind of found) kinds.add(stem(kind));
    }
  }
  return { words: words.join(" "), values: values.join(" "), kinds: [...kinds] };
}

/** The kinds of the literal values in `text` ({@link queryLiterals}). */
export function literalTerms(text: string): readonly string[] {
  return queryLiterals(text).kinds;
}

const destructiveStems: ReadonlySet<string> = new Set(DESTRUCTIVE_ACTIONS.map(stem));

/** Whether `term` (a search term) names a destructive action (`delet`, `remov`, `cancel`). */
export function isDestructive(term: string): boolean {
  return destructiveStems.has(term);
}

/** Words a question starts with (English). */
const QUESTION_WORDS =
  /^\s*(?:what|what's|whats|which|who|who's|whom|whose|when|where|how|is|are|does|did)\b/i;

/** The actions that answer a question: reading, not changing (stems). */
const READING_ACTIONS: readonly string[] = ["get", "list", "read", "show"].map(stem);

/**
 * The reading actions (`get`, `list`, `read`, `show`) when `text` is a
 * question ("what time is it in Tokyo", "…?"): a question asks to read.
 */
export function questionTerms(text: string): readonly string[] {
  return text.trimEnd().endsWith("?") || QUESTION_WORDS.test(text) ? READING_ACTIONS : [];
}

/**
 * English phrasal verbs whose meaning is not their verb's (`set up` is to
 * create, not to set): each becomes the plain verb it means. Generic, not
 * any catalogue's vocabulary.
 */
const PHRASAL_VERBS: readonly [RegExp, string][] = (
  [
    ["set", "up", "create"],
    ["spin", "up", "create"],
    ["sign", "up", "register"],
    ["look", "up", "search"],
    ["shut", "down", "stop"],
    ["tear", "down", "delete"],
    ["take", "down", "remove"],
    ["fill", "in", "fill"],
    ["fill", "out", "fill"],
  ] as const
).map(([verb, particle, meaning]) => [
  new RegExp(
    `\\b${verb}(?:s|ting|ing|ed)?\\s+(?:(?:a|an|the|it|them|this|that|my|our)\\s+)?${particle}\\b`,
    "gi",
  ),
  meaning,
]);

/** `text` with its phrasal verbs replaced by the plain verbs they mean ("set up a meeting" → "create a meeting"). */
export function plainVerbs(text: string): string {
  let plain = text;
  for (const [phrase, meaning] of PHRASAL_VERBS) plain = plain.replace(phrase, meaning);
  return plain;
}
