// What a request's words say it wants done: the groups of related action
// words, the destructive ones, a question's reading actions and the phrasal
// verbs that mean a plain one. Generic English, not any catalogue's words.
import { stem } from "./word-stem.js";

/** The words of destroying or removing something (one of the {@link ACTION_GROUPS}). */
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
  // Reversive un- verbs: each undoes by removing (`unblock` an address: delete its block).
  "unblock",
  "unsubscribe",
  "unfollow",
  "unpin",
  "unassign",
  "uninstall",
  "unlink",
  "unshare",
  "unwatch",
  "unstar",
  "unpublish",
  "unenroll",
  "unregister",
  "untag",
  "unlabel",
];

/**
 * Everyday words for the actions tools perform, grouped: a query word of a
 * group also matches the group's other words (at a reduced weight), so
 * "remove the volume" finds `delete_volume` and "find the page" finds
 * `search_page`. Generic English, not any catalogue's vocabulary.
 */
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
  ["click", "press", "tap"],
  ["select", "choose"],
  ["compare", "diff", "difference"],
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
    ["mouse", "over", "hover"],
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
