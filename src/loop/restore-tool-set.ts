import { DelegatingTool } from "../tool/abstract-tool.js";
import type { Tool } from "../tool/tool.js";
import { isNestedTool, Unfolding } from "../tool/unfolding.js";
import { decorateTool, type ToolSet } from "./tool-set.js";

/**
 * Makes `tools` offer `names` again (a resumed loop's list when it stopped):
 * tools not named are removed; a facade that had unfolded is offered as its
 * guide again; named tools not offered are found among the initial tools,
 * their inner tools and what the facades had unfolded (their context tools,
 * the tools a search had found; what a facade restores wins over its bare
 * inner tool of the same name).
 */
export function restoreToolSet(
  tools: ToolSet,
  names: readonly string[],
  initial: readonly Tool[],
  decorate: ((tool: Tool) => Tool) | undefined,
): void {
  const wanted = new Set(names);
  tools.remove(tools.toolNames.filter((name) => !wanted.has(name)));
  const catalogue = new Map<string, Tool>();
  const visit = (tool: Tool): void => {
    const name = tool.definition.name;
    if (catalogue.has(name)) return;
    catalogue.set(name, tool);
    if (isNestedTool(tool)) for (const inner of tool.innerTools) visit(inner);
  };
  for (const tool of initial) visit(tool);
  // A restored tool may be a facade that had unfolded too (nested facades behind a wrapper): restore it in turn.
  const pending = [...catalogue.values()];
  const restoredFrom = new Set<Tool>();
  for (let tool = pending.shift(); tool !== undefined; tool = pending.shift()) {
    if (restoredFrom.has(tool)) continue;
    restoredFrom.add(tool);
    const name = tool.definition.name;
    const restored = DelegatingTool.unwrap(tool, Unfolding.isSource)?.restoredUnfolding?.(
      tool.definition,
      wanted,
    );
    if (!restored) continue;
    if (restored.guide && tools.has(name)) tools.replace(decorateTool(restored.guide, decorate));
    // What the facade restores wins over its bare inner tools: a wrapper (a state machine's) binds them.
    for (const unfolded of restored.tools) {
      catalogue.set(unfolded.definition.name, unfolded);
      pending.push(unfolded);
    }
  }
  for (const name of names) {
    const tool = tools.has(name) ? undefined : catalogue.get(name);
    if (tool) tools.add(decorateTool(tool, decorate));
  }
}
