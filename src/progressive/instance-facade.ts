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
  readonly removeOnInvoke?: boolean;
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

/**
 * The `@unfoldingTools` classes held as static members of `ctor` or of its
 * superclasses (inherited statics count), superclass members first, in
 * definition order; a subclass's member replaces its parent's of that name.
 */
function nestedClassesOf(ctor: Function): Function[] {
  const chain: Function[] = [];
  for (let current: unknown = ctor; typeof current === "function" && current !== Function.prototype; ) {
    chain.unshift(current);
    current = Object.getPrototypeOf(current);
  }
  const byKey = new Map<string, Function>();
  for (const owner of chain) {
    for (const key of Object.getOwnPropertyNames(owner)) {
      if (key === "prototype" || key === "constructor") continue;
      const value = Object.getOwnPropertyDescriptor(owner, key)?.value;
      if (typeof value === "function" && !chain.includes(value) && unfoldingToolsOptionsOf(value)) {
        byKey.set(key, value);
      }
    }
  }
  return [...new Set(byKey.values())];
}

function noToolsError(className: string): ConfigurationError {
  return new ConfigurationError(
    `Class ${className} has no methods annotated with @llmTool and no inner classes annotated with @unfoldingTools`,
  );
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
    ...(options.removeOnInvoke === undefined ? {} : { removeOnInvoke: options.removeOnInvoke }),
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
 * category facade; otherwise a simple one. Throws a `ConfigurationError` when
 * the class lacks the decorator, or it or a nested class has no tools.
 */
export function facadeFromInstance(instance: object, factories: FacadeFactories): Tool {
  const facade = safelyFacadeFromInstance(instance, factories);
  if (facade) return facade;
  const className = classNameOf(instance);
  if (!unfoldingToolsOptionsOf(instance)) {
    throw new ConfigurationError(`Class ${className} is not annotated with @unfoldingTools`);
  }
  throw noToolsError(className);
}

/**
 * Like {@link facadeFromInstance}, but `undefined` when the class lacks the
 * decorator or has no tools of its own; a nested class without tools still
 * throws, since that is a mistake in the class, not an absence of tools.
 */
export function safelyFacadeFromInstance(instance: object, factories: FacadeFactories): Tool | undefined {
  return buildFacade(instance, factories, new Set());
}

function buildFacade(
  instance: object,
  factories: FacadeFactories,
  path: ReadonlySet<Function>,
): Tool | undefined {
  const options = unfoldingToolsOptionsOf(instance);
  if (!options) return undefined;
  const className = classNameOf(instance);
  const ctor = (instance as { constructor: Function }).constructor;
  const inner = new Set([...path, ctor]);
  const methods = describeToolMethods(instance);
  const nested = nestedClassesOf(ctor)
    .filter((candidate) => !inner.has(candidate))
    .map(
      (candidate) =>
        buildFacade(instantiate(candidate, className), factories, inner) ??
        throwError(noToolsError(classNameOf(candidate))),
    );
  if (methods.length === 0 && nested.length === 0) return undefined;
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

function throwError(error: Error): never {
  throw error;
}
