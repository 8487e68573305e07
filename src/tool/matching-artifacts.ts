import type { ToolResult } from "./tool-result.js";

/**
 * The artifacts of a tool result that a decorator captures, lazily and in
 * order: nothing for a text or error result; an array or Set artifact element
 * by element, any other artifact as one value; only values that `matches`
 * and that `filter` accepts (checked after the type).
 */
export function* matchingArtifacts<T>(
  result: ToolResult,
  matches: (value: unknown) => value is T,
  filter: (artifact: T) => boolean = () => true,
): Generator<T> {
  if (result.kind !== "artifact") return;
  const { artifact } = result;
  const candidates: Iterable<unknown> =
    Array.isArray(artifact) || artifact instanceof Set ? artifact : [artifact];
  for (const candidate of candidates) {
    if (matches(candidate) && filter(candidate)) yield candidate;
  }
}
