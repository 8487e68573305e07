import { ConfigurationError } from "../errors/configuration-error.js";
import type { SearchableTool, SearchableToolOptions } from "../progressive/searchable-tool.js";
import { UnfoldingTool, type UnfoldingToolOptions } from "../progressive/unfolding-tool.js";
import { Logger } from "../tool/logger.js";
import type { Tool } from "../tool/tool.js";
import type { McpTool } from "./mcp-tool.js";
import { clientList, loadServerTools, type McpClientsLike, type McpToolFilter } from "./mcp-tool-loading.js";
import type { ToolCallContextMcpMetaConverter } from "./tool-call-context-mcp-meta-converter.js";

/** Options of {@link McpToolFactory.create}. */
export interface McpToolFactoryOptions {
  /** Turns each call's context into `_meta`. @default ToolCallContextMcpMetaConverter.passThrough() */
  readonly metaConverter?: ToolCallContextMcpMetaConverter;
}

interface Listing {
  readonly tools: readonly McpTool[];
  /** Servers that could not be listed, with why. */
  readonly failures: readonly string[];
}

/**
 * Single MCP tools and {@link UnfoldingTool} facades over MCP tools. Every
 * method lists the servers' tools, so each returns a Promise. A server that
 * can't be reached contributes no tools, with a warning (the facade may be
 * empty: check `innerTools`), so an application degrades gracefully when MCP
 * is down; `requiredToolByName` fails instead, naming the unreachable servers.
 */
export class McpToolFactory {
  private constructor(
    private readonly clients: McpClientsLike,
    private readonly options: McpToolFactoryOptions,
  ) {}

  /** A factory over `clients`. */
  static create(clients: McpClientsLike, options: McpToolFactoryOptions = {}): McpToolFactory {
    return new McpToolFactory(clients, options);
  }

  /** The tool called `name` (its server name or its provider name), or `undefined`. */
  async toolByName(name: string): Promise<Tool | undefined> {
    return findByName(warnOfFailures(await this.list()).tools, name);
  }

  /**
   * The tool called `name`; otherwise a {@link ConfigurationError}:
   * `MCP tool '<name>' not found.` followed by the available tools (sorted),
   * or by ` No MCP tools are available - check MCP client connections.`
   */
  async requiredToolByName(name: string): Promise<Tool> {
    const { tools, failures } = await this.list();
    const found = findByName(tools, name);
    if (found) return found;
    const names = tools.map((tool) => tool.serverToolName).sort();
    const detail =
      names.length === 0
        ? " No MCP tools are available - check MCP client connections."
        : ` Available tools: ${names.join(", ")}`;
    const failed = failures.length > 0 ? ` (unreachable: ${failures.join("; ")})` : "";
    throw new ConfigurationError(`MCP tool '${name}' not found.${detail}${failed}`);
  }

  /** A facade over the tools `filter` accepts. */
  async unfolding(
    name: string,
    description: string,
    filter: McpToolFilter,
    options: UnfoldingToolOptions = {},
  ): Promise<UnfoldingTool> {
    const { tools } = warnOfFailures(await this.list(filter));
    return UnfoldingTool.of(name, description, tools, options);
  }

  /** A search facade (`UnfoldingTool.searchable`) over the tools `filter` accepts (every tool without one). */
  async searchable(
    name: string,
    description: string,
    filter?: McpToolFilter,
    options: SearchableToolOptions = {},
  ): Promise<SearchableTool> {
    const { tools } = await this.list(filter);
    return UnfoldingTool.searchable(name, description, tools, options);
  }

  /** A facade over the tools whose server names are in `toolNames`. */
  unfoldingByName(
    name: string,
    description: string,
    toolNames: Iterable<string>,
    options: UnfoldingToolOptions = {},
  ): Promise<UnfoldingTool> {
    const wanted = new Set(toolNames);
    return this.unfolding(name, description, (tool) => wanted.has(tool.name), options);
  }

  /** A facade over the tools whose names contain a match of any of `patterns` (found anywhere, not a full match). */
  unfoldingMatching(
    name: string,
    description: string,
    patterns: Iterable<RegExp | string>,
    options: UnfoldingToolOptions = {},
  ): Promise<UnfoldingTool> {
    const regexes = [...patterns].map((pattern) =>
      typeof pattern === "string" ? new RegExp(pattern) : pattern,
    );
    return this.unfolding(
      name,
      description,
      (tool) => regexes.some((regex) => tool.name.search(regex) !== -1),
      options,
    );
  }

  private async list(filter?: McpToolFilter): Promise<Listing> {
    const { metaConverter } = this.options;
    const results = await Promise.allSettled(
      clientList(this.clients).map((client) => loadServerTools(client, filter, metaConverter)),
    );
    const tools: McpTool[] = [];
    const failures: string[] = [];
    for (const result of results) {
      if (result.status === "fulfilled") tools.push(...result.value.tools);
      else failures.push(result.reason instanceof Error ? result.reason.message : String(result.reason));
    }
    return { tools, failures };
  }
}

/** `listing`, each server that could not be listed warned about (it contributed no tools). */
function warnOfFailures(listing: Listing): Listing {
  for (const failure of listing.failures) {
    Logger.current().warn(`${failure.replace(/\.$/, "")}. Its tools are left out.`);
  }
  return listing;
}

function findByName(tools: readonly McpTool[], name: string): McpTool | undefined {
  return (
    tools.find((tool) => tool.serverToolName === name) ?? tools.find((tool) => tool.definition.name === name)
  );
}
