import type { Tool } from "../tool/tool.js";
import { isNestedTool } from "../tool/unfolding.js";
import { decorateTool, type ToolSet } from "./tool-set.js";

/**
 * Makes `tools` offer `names` again (a resumed loop's list when it stopped):
 * tools not named are removed, named tools not offered are found among the
 * initial tools and their inner tools (what unfolding injected).
 */
export function restoreToolSet(
  tools: ToolSet,
  names: readonly string[],
  initial: readonly Tool[],
  decorate: ((tool: Tool) => Tool) | undefined,
): void {
  const wanted = new Set(names);
  tools.remove(tools.toolNames.filter((name) => !wanted.has(name)));
  const missing = names.filter((name) => !tools.has(name));
  if (missing.length === 0) return;
  const catalogue = new Map<string, Tool>();
  const visit = (tool: Tool): void => {
    const name = tool.definition.name;
    if (catalogue.has(name)) return;
    catalogue.set(name, tool);
    if (isNestedTool(tool)) for (const inner of tool.innerTools) visit(inner);
  };
  for (const tool of initial) visit(tool);
  for (const name of missing) {
    const tool = catalogue.get(name);
    if (tool) tools.add(decorateTool(tool, decorate));
  }
}
