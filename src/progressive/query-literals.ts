// The literal values a request pastes (URLs, e-mail addresses, numbers,
// file names and paths), told apart from its words and named by their kind.
import { stem } from "./word-stem.js";

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
