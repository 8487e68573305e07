import type { McpClient, McpToolInfo } from "./mcp-client.js";
import type { McpClients } from "./mcp-clients.js";
import { McpTool } from "./mcp-tool.js";
import type { ToolCallContextMcpMetaConverter } from "./tool-call-context-mcp-meta-converter.js";

/** Chooses which of a server's tools to use, from the server's description of it. */
export type McpToolFilter = (tool: McpToolInfo, server: string) => boolean;

/** The clients behind a group or factory: a set from config, or a list. */
export type McpClientsLike = McpClients | readonly McpClient[];

/** The clients of `clients` as a list. */
export function clientList(clients: McpClientsLike): readonly McpClient[] {
  return Array.isArray(clients) ? (clients as readonly McpClient[]) : (clients as McpClients).clients;
}

/**
 * The tools of one server that pass `filter`, as {@link McpTool}s. Two server
 * names that normalise to one provider name get `_2`, `_3`… suffixes.
 */
export async function loadServerTools(
  client: McpClient,
  filter: McpToolFilter | undefined,
  metaConverter: ToolCallContextMcpMetaConverter | undefined,
): Promise<McpTool[]> {
  const infos = await client.listTools();
  const taken = new Set<string>();
  const tools: McpTool[] = [];
  for (const info of infos) {
    if (filter && !filter(info, client.name)) continue;
    let tool = new McpTool(client, info, metaConverter ? { metaConverter } : {});
    let name = tool.definition.name;
    for (let index = 2; taken.has(name); index++) name = `${tool.definition.name.slice(0, 60)}_${index}`;
    if (name !== tool.definition.name)
      tool = new McpTool(client, info, { ...(metaConverter ? { metaConverter } : {}), name });
    taken.add(name);
    tools.push(tool);
  }
  return tools;
}
