import { groupSearchTool } from "../progressive/searchable-tool-group.js";
import type { ToolGroupMetadata } from "../prompt/tool-group.js";
import type { Tool } from "../tool/tool.js";
import type { McpClient } from "./mcp-client.js";
import type { ServerTools } from "./mcp-tool-loading.js";

/**
 * An MCP group's tools as offered: the tools of searchable servers (every
 * server when `all`) behind one search tool, placed after the other servers'
 * tools; `tools` itself when no server is searchable.
 */
export function searchableGroupTools(
  metadata: ToolGroupMetadata,
  tools: readonly Tool[],
  clients: readonly McpClient[],
  perServer: readonly ServerTools[],
  all: boolean,
): readonly Tool[] {
  if (!all && !clients.some((client) => client.config.searchable === true)) return tools;
  const plain: Tool[] = [];
  const searched: Tool[] = [];
  // `tools` is every server's tools in order, as offered (a clashing name already renamed `<server>_<tool>`).
  let at = 0;
  perServer.forEach((server, index) => {
    const searchable = all || clients[index]?.config.searchable === true;
    const own = tools.slice(at, at + server.tools.length);
    at += server.tools.length;
    (searchable ? searched : plain).push(...own);
  });
  if (searched.length === 0) return tools;
  return [...plain, groupSearchTool(metadata, searched)];
}
