import type { Tool } from "../tool/tool.js";
import type { ToolInjectionResult } from "./tool-injection-strategy.js";
import { decorateTool, type ToolSet } from "./tool-set.js";

/** What applying an injection result changed. */
export interface AppliedToolInjection {
  /** Tools now offered that were not before (decorated instances). */
  readonly added: Tool[];
  /** Tools no longer offered (including tools replaced in place). */
  readonly removed: Tool[];
}

/**
 * Applies a strategy's change to the tool set: remove by name, then replace
 * same-named tools in place, then append additions whose name is not taken.
 * Existing tools keep their positions; replacements and additions are
 * decorated with `decorate`.
 */
export function applyToolInjection(
  tools: ToolSet,
  change: ToolInjectionResult,
  decorate?: (tool: Tool) => Tool,
): AppliedToolInjection {
  const removed = change.remove?.length ? tools.remove(change.remove) : [];
  const added: Tool[] = [];
  for (const tool of change.replace ?? []) {
    const decorated = decorateTool(tool, decorate);
    if (tools.get(decorated.definition.name) === decorated) continue;
    const previous = tools.replace(decorated);
    if (previous) removed.push(previous);
    added.push(decorated);
  }
  for (const tool of change.add ?? []) {
    if (tools.has(tool.definition.name)) continue;
    const decorated = decorateTool(tool, decorate);
    if (tools.add(decorated)) added.push(decorated);
  }
  return { added, removed };
}
