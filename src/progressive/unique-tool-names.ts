import { ConfigurationError } from "../errors/configuration-error.js";
import type { Tool } from "../tool/tool.js";
import type { NestedTool } from "../tool/unfolding.js";
import { contextToolName } from "./context-tool.js";

/** Finds the facade behind a (possibly decorated) tool, if it is one. */
export type FacadeOf = (tool: Tool) => NestedTool | undefined;

/**
 * Throws a {@link ConfigurationError} when unfolding `facadeName` down to its
 * leaves could put two different tools with one name in the tool list: every
 * facade, its `<name>_context` tool and every leaf reachable through nested
 * facades must have its own name (one instance may appear in several places).
 * The loop cannot offer both, so one would be picked silently.
 */
export function checkUniqueToolNames(
  facadeName: string,
  innerTools: readonly Tool[],
  facadeOf: FacadeOf,
): void {
  const seen = new Map<string, { tool: Tool | undefined; path: string }>();
  const claim = (name: string, tool: Tool | undefined, path: string): void => {
    const previous = seen.get(name);
    if (previous === undefined) {
      seen.set(name, { tool, path });
      return;
    }
    if (tool !== undefined && previous.tool === tool) return;
    throw new ConfigurationError(
      `UnfoldingTool '${facadeName}' would offer two different tools named '${name}' (${previous.path} and ${path}). Tool names must be unique across nested facades, their '_context' tools and their children: rename one (tool.withName("...")).`,
    );
  };
  const visit = (name: string, children: readonly Tool[], path: string, visited: Set<NestedTool>): void => {
    claim(contextToolName(name), undefined, `the context tool of ${path}`);
    for (const child of children) {
      const childName = child.definition.name;
      const childPath = `${path} > ${childName}`;
      claim(childName, child, childPath);
      const nested = facadeOf(child);
      if (nested && !visited.has(nested)) {
        visited.add(nested);
        visit(nested.definition.name, nested.innerTools, childPath, visited);
      }
    }
  };
  claim(facadeName, undefined, `the facade ${facadeName}`);
  visit(facadeName, innerTools, facadeName, new Set());
}
