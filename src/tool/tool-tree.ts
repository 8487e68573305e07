import { DelegatingTool } from "./abstract-tool.js";
import type { Tool } from "./tool-interface.js";
import { isNestedTool } from "./unfolding.js";

function appendLevel(lines: string[], tools: readonly Tool[], indent: string): void {
  tools.forEach((tool, index) => {
    const last = index === tools.length - 1;
    const prefix = last ? "└── " : "├── ";
    const nested = DelegatingTool.unwrap(tool, isNestedTool);
    if (nested) {
      lines.push(`${indent}${prefix}${tool.definition.name} (${nested.innerTools.length} inner tools)`);
      appendLevel(lines, nested.innerTools, indent + (last ? "    " : "│   "));
    } else {
      lines.push(`${indent}${prefix}${tool.definition.name}`);
    }
  });
}

/**
 * A tree of tool names for logs and docs: the root line, then `├── ` / `└── `
 * per tool, nested tools as `<name> (<n> inner tools)` with their children
 * indented. With no tools: `<rootName> has no tools`.
 */
export function formatToolTree(rootName: string, tools: readonly Tool[]): string {
  if (tools.length === 0) return `${rootName} has no tools`;
  const lines = [rootName];
  appendLevel(lines, tools, "");
  return lines.join("\n").trimEnd();
}
