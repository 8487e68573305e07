import type { McpClient, McpToolInfo } from "./mcp-client.js";
import { McpTool, providerToolName } from "./mcp-tool.js";
import type { ToolCallContextMcpMetaConverter } from "./tool-call-context-mcp-meta-converter.js";
import { skippedTool } from "./usable-mcp-tools.js";

/** Chooses which of a server's tools to use, from the server's description of it. */
export type McpToolFilter = (tool: McpToolInfo, server: string) => boolean;

/**
 * The clients behind a group or factory: an `McpClients` (a set from config),
 * or a list. Only its `clients` are read, so it is named by that: this file
 * sits below `McpClients`, whose config groups are made of the groups here.
 */
export type McpClientsLike = { readonly clients: readonly McpClient[] } | readonly McpClient[];

/** The clients of `clients` as a list. */
export function clientList(clients: McpClientsLike): readonly McpClient[] {
  return Array.isArray(clients)
    ? (clients as readonly McpClient[])
    : (clients as { readonly clients: readonly McpClient[] }).clients;
}

/** What the server said about each tool when it was listed, to tell an unchanged tool on a later listing. */
const listedAs = new WeakMap<McpTool, McpToolInfo>();

/** One server's tools, and the server's {@link McpClient.toolListVersion} they reflect. */
export interface ServerTools {
  readonly tools: readonly McpTool[];
  readonly version: number;
}

/**
 * The tools of one server that pass `filter`, as {@link McpTool}s. Two server
 * names that normalise to one provider name get `_2`, `_3`… suffixes; a tool
 * that can't be made into a {@link McpTool} is skipped with a warning. A tool
 * of `previous` (an earlier listing) that the server still describes the same
 * way is kept as it is, so a re-listing changes only what changed.
 */
export async function loadServerTools(
  client: McpClient,
  filter: McpToolFilter | undefined,
  metaConverter: ToolCallContextMcpMetaConverter | undefined,
  previous: readonly McpTool[] = [],
): Promise<ServerTools> {
  const { tools: infos, version } = await client.listToolsVersioned();
  const earlier = new Map(previous.map((tool) => [tool.definition.name, tool]));
  const taken = new Set<string>();
  const tools: McpTool[] = [];
  for (const info of infos) {
    if (filter && !filter(info, client.name)) continue;
    const base = providerToolName(info.name);
    let name = base;
    for (let index = 2; taken.has(name); index++) name = `${base.slice(0, 60)}_${index}`;
    taken.add(name);
    const same = earlier.get(name);
    if (same !== undefined && JSON.stringify(listedAs.get(same)) === JSON.stringify(info)) {
      tools.push(same);
      continue;
    }
    let tool: McpTool;
    try {
      tool = new McpTool(client, info, {
        ...(metaConverter ? { metaConverter } : {}),
        ...(name !== base ? { name } : {}),
      });
    } catch (error) {
      skippedTool(client.name, `tool '${info.name}'`, error instanceof Error ? error.message : String(error));
      continue;
    }
    listedAs.set(tool, info);
    tools.push(tool);
  }
  return { tools, version };
}
