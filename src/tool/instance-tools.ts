import { ConfigurationError } from "../errors/configuration-error.js";
import { decoratorMetadataOf } from "./decorator-metadata.js";
import type { Tool } from "./tool-interface.js";

/** Turns an instance into tools when it knows how (for example an `@unfoldingTools` class into one facade). */
export type InstanceToolsFactory = (instance: object) => Tool[] | undefined;

/** One `@llmTool` method's tool and its category. */
export interface ToolMethodDescription {
  readonly tool: Tool;
  /** The `category` given to `@llmTool`, if any. */
  readonly category?: string;
}

/** Reads the tools of an instance's `@llmTool` methods; `@llmTool`'s module provides it. */
export type ToolMethodReader = (instance: object) => ReadonlyArray<ToolMethodDescription>;

const TOOL_METHOD_READER = Symbol.for("embabel-ts.llm-tool-reader");

/** The key under which a tool made from an `@llmTool` method gives its method's name (shared by every copy of the package). */
export const TOOL_METHOD_NAME: unique symbol = Symbol.for("embabel-ts.llm-tool-method-name");

const factories = new Set<InstanceToolsFactory>();
let registeredReader: ToolMethodReader | undefined;

/**
 * Registers a factory that `Tool.fromInstance` and `Tool.safelyFromInstance`
 * ask first; the first one returning a list gives the answer. Internal API
 * for other layers (the progressive layer registers `@unfoldingTools`).
 */
export function registerInstanceToolsFactory(factory: InstanceToolsFactory): void {
  factories.add(factory);
}

/**
 * Records how a class's `@llmTool` methods become tools. `@llmTool` calls it
 * as it decorates, so `Tool.fromInstance` never names method tools (a bundle
 * that never decorates leaves them out). The reader is kept for every later
 * instance and left on the class's decorator metadata, where another copy of
 * the package finds it.
 */
export function recordToolMethodReader(
  metadata: Record<PropertyKey, unknown>,
  reader: ToolMethodReader,
): void {
  registeredReader = reader;
  metadata[TOOL_METHOD_READER] = reader;
}

/**
 * Makes `reader` the reader of `@llmTool` methods of classes whose own copy
 * of the package left none on their metadata (0.1.0 left none), unless
 * `@llmTool` recorded one already. Installed by the CLI with the agent reader.
 */
export function useToolMethodReader(reader: ToolMethodReader): void {
  registeredReader ??= reader;
}

/** The class name error messages give for `instance`. */
export function classNameOf(instance: object): string {
  const name = (instance as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name.length > 0 ? name : "anonymous class";
}

/**
 * The tools of an instance's `@llmTool` methods with their categories, in
 * declaration order (superclass methods first), ignoring registered factories.
 * Throws a {@link ConfigurationError} when two methods share a tool name.
 */
export function describeToolMethods(instance: object): ReadonlyArray<ToolMethodDescription> {
  const reader = registeredReader ?? decoratorMetadataOf(instance)?.[TOOL_METHOD_READER];
  return typeof reader === "function" ? (reader as ToolMethodReader)(instance) : [];
}

function fromFactories(instance: object): Tool[] | undefined {
  for (const factory of factories) {
    const tools = factory(instance);
    if (tools !== undefined) return tools;
  }
  return undefined;
}

/**
 * The tools of an object: a registered factory's answer, else one tool per
 * `@llmTool` method. Throws a {@link ConfigurationError} naming the class
 * when it has none.
 */
export function fromInstance(instance: object): Tool[] {
  const tools = safelyFromInstance(instance);
  if (tools.length === 0) {
    throw new ConfigurationError(`No methods annotated with @llmTool found on ${classNameOf(instance)}`);
  }
  return tools;
}

/** Like {@link fromInstance}, but an object without tool methods gives an empty list. */
export function safelyFromInstance(instance: object): Tool[] {
  return fromFactories(instance) ?? describeToolMethods(instance).map((description) => description.tool);
}
