import type { Tool } from "../tool/tool.js";

/** An inner tool named by the facade's input, and the input to pass it. */
export interface Shortcut {
  readonly tool: Tool;
  /** The named property's value as JSON text (scalars stay JSON scalars: `"ecstasy"` keeps its quotes). */
  readonly input: string;
}

/**
 * Shortcut dispatch: when `input` is a JSON object one of whose top-level
 * property names is an inner tool's name (first in property order wins), that
 * tool with the property's value as its input. Blank input, invalid JSON,
 * arrays, scalars and unmatched names give `undefined`.
 */
export function findShortcut(input: string, tools: readonly Tool[]): Shortcut | undefined {
  const trimmed = input.trim();
  if (trimmed === "" || tools.length === 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  for (const [key, value] of Object.entries(parsed)) {
    const tool = byName.get(key);
    if (tool) return { tool, input: JSON.stringify(value) };
  }
  return undefined;
}
