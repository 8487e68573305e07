import { ConfigurationError } from "../errors/configuration-error.js";
import { describeToolMethods } from "../tool/instance-tools.js";
import type { Tool } from "../tool/tool.js";
import { usableNotes } from "./unfolding-messages.js";
import { type UnfoldingToolsOptions, unfoldingToolsOptionsOf } from "./unfolding-tools-options.js";

/** Options the facade factories accept (a subset of `UnfoldingTool`'s). */
export interface FacadeOptions {
  readonly childToolUsageNotes?: string;
  readonly exclusive?: boolean;
  readonly categoryParameter?: string;
}

/** The two facade factories an annotated class may turn into (passed in to keep the module graph acyclic). */
export interface FacadeFactories {
  of(name: string, description: string, tools: readonly Tool[], options: FacadeOptions): Tool;
  byCategory(
    name: string,
    description: string,
    toolsByCategory: ReadonlyMap<string, readonly Tool[]>,
    options: FacadeOptions,
  ): Tool;
}

/** The name of an instance's class, for messages. */
export function classNameOf(target: object): string {
  const ctor = typeof target === "function" ? target : (target as { constructor?: unknown }).constructor;
  const name = (ctor as { name?: unknown } | undefined)?.name;
  return typeof name === "string" && name.length > 0 ? name : "anonymous class";
}

/** The `@unfoldingTools` classes held as static members of `ctor`, in definition order. */
function nestedClassesOf(ctor: Function): Function[] {
  const nested: Function[] = [];
  for (const key of Object.getOwnPropertyNames(ctor)) {
    if (key === "prototype" || key === "constructor") continue;
    const value = Object.getOwnPropertyDescriptor(ctor, key)?.value;
    if (typeof value === "function" && value !== ctor && unfoldingToolsOptionsOf(value)) nested.push(value);
  }
  return nested;
}

function instantiate(nested: Function, outer: string): object {
  try {
    return new (nested as new () => object)();
  } catch (error) {
    throw new ConfigurationError(
      `Cannot create the nested @unfoldingTools class ${classNameOf(nested)} of ${outer} with no arguments: ${(error as Error)?.message ?? String(error)}. Give it a constructor without required arguments.`,
      { cause: error },
    );
  }
}

function facadeOptions(options: UnfoldingToolsOptions): FacadeOptions {
  const notes = usableNotes(options.childToolUsageNotes);
  return {
    ...(notes === undefined ? {} : { childToolUsageNotes: notes }),
    ...(options.exclusive ? { exclusive: true } : {}),
    ...(options.categoryParameter ? { categoryParameter: options.categoryParameter } : {}),
  };
}

/**
 * The categories of an annotated class: each category's tools followed by
 * every uncategorised tool, then `all` (every tool once) when some tools are
 * uncategorised and no category is already called `all`.
 */
function categoriesOf(
  categorised: ReadonlyMap<string, Tool[]>,
  uncategorised: readonly Tool[],
  every: readonly Tool[],
): Map<string, readonly Tool[]> {
  const categories = new Map<string, readonly Tool[]>();
  for (const [category, tools] of categorised) categories.set(category, [...tools, ...uncategorised]);
  if (uncategorised.length > 0 && !categories.has("all")) categories.set("all", every);
  return categories;
}

/**
 * Builds the facade of an `@unfoldingTools` instance: its `@llmTool` methods
 * (declaration order) and its nested `@unfoldingTools` classes held as static
 * members (instantiated with no arguments, recursively). With categories, a
 * category facade; otherwise a simple one.
 */
export function facadeFromInstance(
  instance: object,
  factories: FacadeFactories,
  path: ReadonlySet<Function> = new Set(),
): Tool {
  const className = classNameOf(instance);
  const options = unfoldingToolsOptionsOf(instance);
  if (!options) throw new ConfigurationError(`Class ${className} is not annotated with @unfoldingTools`);
  const ctor = (instance as { constructor: Function }).constructor;
  const inner = new Set([...path, ctor]);
  const methods = describeToolMethods(instance);
  const nested = nestedClassesOf(ctor)
    .filter((candidate) => !inner.has(candidate))
    .map((candidate) => facadeFromInstance(instantiate(candidate, className), factories, inner));
  if (methods.length === 0 && nested.length === 0) {
    throw new ConfigurationError(
      `Class ${className} has no methods annotated with @llmTool and no inner classes annotated with @unfoldingTools`,
    );
  }
  const categorised = new Map<string, Tool[]>();
  const uncategorised: Tool[] = [];
  for (const { tool, category } of methods) {
    if (category === undefined || category.trim() === "") uncategorised.push(tool);
    else categorised.set(category, [...(categorised.get(category) ?? []), tool]);
  }
  uncategorised.push(...nested);
  const every = [...methods.map((method) => method.tool), ...nested];
  return categorised.size === 0
    ? factories.of(options.name, options.description, uncategorised, facadeOptions(options))
    : factories.byCategory(
        options.name,
        options.description,
        categoriesOf(categorised, uncategorised, every),
        facadeOptions(options),
      );
}
