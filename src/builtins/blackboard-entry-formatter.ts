import { inspect } from "node:util";

/** Renders one blackboard object for the LLM (the specification's `BlackboardEntryFormatter`). */
export interface BlackboardEntryFormatter {
  /** The text the LLM reads for `entry`. */
  format(entry: unknown): string;
}

/** An object that describes itself (the specification's `HasInfoString`). */
export interface HasInfoString {
  /** A description of the object; `verbose` asks for detail, `indent` for leading spaces. */
  infoString(verbose?: boolean, indent?: number): string;
}

/** An object whose text is its content (the specification's `HasContent`). */
export interface HasContent {
  readonly content: string;
}

function hasInfoString(entry: unknown): entry is HasInfoString {
  return (
    typeof entry === "object" && entry !== null && typeof (entry as HasInfoString).infoString === "function"
  );
}

function hasContent(entry: unknown): entry is HasContent {
  return typeof entry === "object" && entry !== null && typeof (entry as HasContent).content === "string";
}

function ownToString(entry: object): string | undefined {
  const render = (entry as { toString?: unknown }).toString;
  if (typeof render !== "function" || render === Object.prototype.toString) return undefined;
  if (render === Array.prototype.toString) return undefined;
  const text = String(render.call(entry));
  return text.startsWith("[object ") ? undefined : text;
}

function fields(entry: object): string {
  try {
    return JSON.stringify(entry, null, 2) ?? inspect(entry, { depth: 4 });
  } catch {
    return inspect(entry, { depth: 4 });
  }
}

/**
 * The default formatter: an object's own info string (`infoString(true, 0)`)
 * if it has one, else its `content`, else its own `toString()`, else its
 * fields as indented JSON; other values as `String(value)`.
 */
export const DefaultBlackboardEntryFormatter: BlackboardEntryFormatter = Object.freeze({
  format(entry: unknown): string {
    if (hasInfoString(entry)) return entry.infoString(true, 0);
    if (hasContent(entry)) return entry.content;
    if (typeof entry === "object" && entry !== null) return ownToString(entry) ?? fields(entry);
    return String(entry);
  },
});
