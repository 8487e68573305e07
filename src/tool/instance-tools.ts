import { ConfigurationError } from "../errors/configuration-error.js";
import { toolMethodEntriesOf } from "./llm-tool.js";
import { MethodTool } from "./method-tool.js";
import type { Tool } from "./tool-interface.js";

/** Turns an instance into tools when it knows how (for example an `@unfoldingTools` class into one facade). */
export type InstanceToolsFactory = (instance: object) => Tool[] | undefined;

/** One `@llmTool` method's tool and its category. */
export interface ToolMethodDescription {
  readonly tool: Tool;
  /** The `category` given to `@llmTool`, if any. */
  readonly category?: string;
}

const factories = new Set<InstanceToolsFactory>();

/**
 * Registers a factory that `Tool.fromInstance` and `Tool.safelyFromInstance`
 * ask first; the first one returning a list gives the answer. Internal API
 * for other layers (the progressive layer registers `@unfoldingTools`).
 */
export function registerInstanceToolsFactory(factory: InstanceToolsFactory): void {
  factories.add(factory);
}

function classNameOf(instance: object): string {
  const name = (instance as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name.length > 0 ? name : "anonymous class";
}

/**
 * The tools of an instance's `@llmTool` methods with their categories, in
 * declaration order (superclass methods first), ignoring registered factories.
 * Throws a {@link ConfigurationError} when two methods share a tool name.
 */
export function describeToolMethods(instance: object): ReadonlyArray<ToolMethodDescription> {
  const entries = toolMethodEntriesOf(instance);
  if (entries.length === 0) return [];
  const className = classNameOf(instance);
  const byName = new Map<string, string | symbol>();
  return entries.map((entry) => {
    const tool = new MethodTool(instance, entry, className);
    const name = tool.definition.name;
    const previous = byName.get(name);
    if (previous !== undefined) {
      throw new ConfigurationError(
        `Two @llmTool methods of ${className} have the tool name '${name}': ${String(previous)} and ${String(entry.methodName)}. Give one of them another name.`,
      );
    }
    byName.set(name, entry.methodName);
    const category = entry.options.category;
    return category === undefined ? { tool } : { tool, category };
  });
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
