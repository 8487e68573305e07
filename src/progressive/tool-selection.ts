import { ConfigurationError } from "../errors/configuration-error.js";
import { distinctByName } from "../tool/distinct-tools.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";

/** What a selector may return: tools, or nothing (no tools: the tool list stays as it is). */
export type ToolSelection = readonly Tool[] | undefined | null;

/**
 * Chooses the tools a facade unfolds into from the raw JSON input of its call
 * (`UnfoldingTool.selectable`). It may build new tools capturing the input
 * (a connection string, a cart); it runs exactly once per facade call, with
 * the call's context and options (pass `options.signal` on to any I/O).
 */
export type ToolSelector = (
  input: string,
  context: ToolCallContext,
  options: ToolCallOptions,
) => ToolSelection | Promise<ToolSelection>;

/** Tools grouped by category: a record or a map, in insertion order. */
export type ToolsByCategory =
  | Readonly<Record<string, readonly Tool[]>>
  | ReadonlyMap<string, readonly Tool[]>;

/**
 * `tools` with repeated instances dropped (first position kept). Two different
 * tools with one name are a {@link ConfigurationError} naming the facade.
 */
export function distinctTools(tools: readonly Tool[], facadeName: string): Tool[] {
  return distinctByName(
    tools,
    (name) =>
      new ConfigurationError(
        `UnfoldingTool '${facadeName}' has two different inner tools named '${name}'. Tool names must be unique: rename one (tool.withName("...")) or remove it.`,
      ),
  );
}

/** The categories as an ordered map (a record keeps its key order). */
export function categoryMap(toolsByCategory: ToolsByCategory): ReadonlyMap<string, readonly Tool[]> {
  return toolsByCategory instanceof Map
    ? new Map(toolsByCategory)
    : new Map(Object.entries(toolsByCategory as Readonly<Record<string, readonly Tool[]>>));
}

/** The input schema of a category facade: one required string parameter whose enum is the categories. */
export function categorySchema(parameter: string, categories: readonly string[]): InputSchema {
  return InputSchema.of(
    Param.string(parameter, `Category to access. Available: ${categories.join(", ")}`, {
      enumValues: categories,
    }),
  );
}

function readCategory(input: string, parameter: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(input);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    const value = (parsed as Record<string, unknown>)[parameter];
    return typeof value === "string" && value.trim().length > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Selects a category's tools from the `parameter` of the input; a category
 * differing only in case or surrounding spaces matches too. Unknown, missing,
 * blank or unparseable categories select `all`.
 */
export function categorySelector(
  parameter: string,
  categories: ReadonlyMap<string, readonly Tool[]>,
  all: readonly Tool[],
): ToolSelector {
  const folded = new Map([...categories].map(([name, tools]) => [name.trim().toLowerCase(), tools]));
  return (input) => {
    const category = readCategory(input, parameter);
    if (category === undefined) return all;
    return categories.get(category) ?? folded.get(category.trim().toLowerCase()) ?? all;
  };
}
