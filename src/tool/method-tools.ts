import { ConfigurationError } from "../errors/configuration-error.js";
import { metadataListsOf } from "./decorator-metadata.js";
import { classNameOf, type ToolMethodDescription, useToolMethodReader } from "./instance-tools.js";
import { TOOL_METHODS, type ToolMethodEntry } from "./llm-tool-options.js";
import { MethodTool } from "./method-tool.js";

/**
 * The `@llmTool` methods of an instance's class chain: superclass methods
 * first, each class's instance methods in declaration order then its static
 * ones; a redeclared (overriding) method keeps its parent's position and
 * takes the subclass's options.
 */
export function toolMethodEntriesOf(target: object): ToolMethodEntry[] {
  const byKey = new Map<unknown, ToolMethodEntry>();
  for (const list of metadataListsOf<ToolMethodEntry>(target, TOOL_METHODS)) {
    // Transpilers decorate static methods before instance ones; list instance methods first.
    for (const entry of list) if (!entry.isStatic) byKey.set(entry.key, entry);
    for (const entry of list) if (entry.isStatic) byKey.set(entry.key, entry);
  }
  return [...byKey.values()];
}

/**
 * The tools of an instance's `@llmTool` methods with their categories, in
 * declaration order (superclass methods first): the reader `@llmTool`
 * registers for `describeToolMethods`. Throws a {@link ConfigurationError}
 * when two methods share a tool name.
 */
export function describeMethodTools(instance: object): ReadonlyArray<ToolMethodDescription> {
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

/**
 * Installs this copy's reader of `@llmTool` methods for classes decorated by
 * a copy that left none on their metadata (see `installAgentClassReader`). @internal
 */
export function installToolMethodReader(): void {
  useToolMethodReader(describeMethodTools);
}
