import type { Tool } from "./tool-interface.js";
import { resolveNameClashes } from "./tool-name-clashes.js";

/**
 * `tools` with repeated instances dropped (first position kept); two
 * different tools with one name throw what `clash(name)` makes, since the LLM
 * calls tools by name and could not tell them apart, unless one of them gives
 * way (an MCP tool): that one is renamed ({@link resolveNameClashes}).
 */
export function distinctByName(tools: readonly Tool[], clash: (name: string) => Error): Tool[] {
  const byName = new Map<string, Tool>();
  const distinct: Tool[] = [];
  for (const tool of resolveNameClashes(tools)) {
    const name = tool.definition.name;
    const existing = byName.get(name);
    if (existing === tool) continue;
    if (existing) throw clash(name);
    byName.set(name, tool);
    distinct.push(tool);
  }
  return distinct;
}
