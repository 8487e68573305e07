import { ToolGroup, type ToolGroupMetadata, type ToolGroupPermission } from "../prompt/tool-group.js";
import type { Tool } from "../tool/tool.js";
import type { McpClient } from "./mcp-client.js";
import type { McpTool } from "./mcp-tool.js";
import {
  clientList,
  loadServerTools,
  type McpClientsLike,
  type McpToolFilter,
  type ServerTools,
} from "./mcp-tool-loading.js";
import { searchableGroupTools } from "./searchable-group-tools.js";
import type { ToolCallContextMcpMetaConverter } from "./tool-call-context-mcp-meta-converter.js";

/** Options of {@link McpToolGroup.create}. */
export interface McpToolGroupOptions {
  /** The role the group is requested by (`web`). */
  readonly role: string;
  /** What the group's tools do. */
  readonly description: string;
  /** The servers whose tools the group offers. */
  readonly clients: McpClientsLike;
  /** Which server tools to include. @default every tool */
  readonly filter?: McpToolFilter;
  /** Turns each call's context into `_meta`. @default ToolCallContextMcpMetaConverter.passThrough() */
  readonly metaConverter?: ToolCallContextMcpMetaConverter;
  /** The implementation's own name. @default the role */
  readonly name?: string;
  /** Who supplies the tools. @default "embabel" */
  readonly provider?: string;
  /** @default "0.1.0" */
  readonly version?: string;
  /** What the tools need to be allowed to do. @default [] */
  readonly permissions?: readonly ToolGroupPermission[];
  /**
   * Offer the tools behind one search tool, `find_<role>_tools`
   * (`UnfoldingTool.searchable`), instead of one by one.
   * @default false (only the tools of servers configured with `searchable: true`)
   */
  readonly searchable?: boolean;
}

/** What a group listed, server by server, with the list versions the listings reflect. */
interface Listing {
  readonly clients: readonly McpClient[];
  readonly perServer: readonly ServerTools[];
  readonly tools: readonly McpTool[];
}

/** Whether no server's tool list changed since `listing` was made. */
function isCurrent(listing: Listing): boolean {
  const { clients, perServer } = listing;
  for (let index = 0; index < clients.length; index++) {
    if ((clients[index] as McpClient).toolListVersion !== perServer[index]?.version) return false;
  }
  return true;
}

function describeMetadata(metadata: ToolGroupMetadata): string {
  return `ToolGroupMetadata(role=${metadata.role}, name=${metadata.name}, provider=${metadata.provider}, version=${metadata.version}, permissions=[${metadata.permissions.join(", ")}], description=${metadata.description})`;
}

/**
 * A {@link ToolGroup} backed by MCP servers, loaded just in time: nothing is
 * listed or connected until `tools()` is first called (so a user's token can
 * be in place by then); concurrent first calls load once; a failed load
 * rejects with an error naming the server and its cause, and the next call
 * tries again. When a server says its tool list changed
 * (`notifications/tools/list_changed`) or was reconnected, the next `tools()`
 * lists that server again (and only then: nothing is listed eagerly); tools it
 * still describes the same way stay the same objects.
 */
export class McpToolGroup implements ToolGroup {
  readonly metadata: ToolGroupMetadata;
  private loaded: Listing | undefined;
  private loading: Promise<readonly McpTool[]> | undefined;
  private offeredView: { readonly tools: readonly McpTool[]; readonly offered: readonly Tool[] } | undefined;

  private constructor(private readonly options: McpToolGroupOptions) {
    this.metadata = ToolGroup.metadata(
      { role: options.role, description: options.description },
      {
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.provider !== undefined ? { provider: options.provider } : {}),
        ...(options.version !== undefined ? { version: options.version } : {}),
        ...(options.permissions !== undefined ? { permissions: options.permissions } : {}),
      },
    );
  }

  /** A lazy group over `clients`' tools that pass `filter`. */
  static create(options: McpToolGroupOptions): McpToolGroup {
    return new McpToolGroup(options);
  }

  /** Whether the tools have been loaded. */
  get toolsInitialized(): boolean {
    return this.loaded !== undefined;
  }

  /**
   * The group's tools: loaded on the first call and kept until a server's list
   * changes; `signal` stops waiting (the shared load goes on).
   */
  tools(options: { readonly signal?: AbortSignal } = {}): Promise<readonly Tool[]> {
    const loaded = this.loaded;
    if (loaded !== undefined && isCurrent(loaded)) return Promise.resolve(this.offered(loaded.tools));
    const loading = this.sharedLoad().then((tools) => this.offered(tools));
    const { signal } = options;
    if (!signal) return loading;
    if (signal.aborted) return Promise.reject(signal.reason);
    return Promise.race([
      loading,
      new Promise<never>((_resolve, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
      ),
    ]);
  }

  /** The tools as offered: searchable servers' tools behind a search tool (made again only when the list changes). */
  private offered(tools: readonly McpTool[]): readonly Tool[] {
    const listing = this.loaded;
    if (listing?.tools !== tools) return tools;
    if (this.offeredView?.tools !== tools) {
      const { clients, perServer } = listing;
      const offered = searchableGroupTools(
        this.metadata,
        tools,
        clients,
        perServer,
        this.options.searchable ?? false,
      );
      this.offeredView = { tools, offered };
    }
    return this.offeredView.offered;
  }

  /** The one load in flight (started if none is). */
  private sharedLoad(): Promise<readonly McpTool[]> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /**
   * Lists the servers whose list changed since the last listing (all of them
   * the first time). If a re-listing fails, the tools listed before are kept
   * (their calls answer in-band while a server is down) and the next use tries again.
   */
  private async load(): Promise<readonly McpTool[]> {
    const { filter, metaConverter } = this.options;
    const clients = clientList(this.options.clients);
    const before = this.loaded;
    let perServer: ServerTools[];
    try {
      perServer = await Promise.all(
        clients.map((client, index) => {
          const earlier = before?.clients[index] === client ? before.perServer[index] : undefined;
          if (earlier !== undefined && earlier.version === client.toolListVersion) return earlier;
          return loadServerTools(client, filter, metaConverter, earlier?.tools);
        }),
      );
    } catch (error) {
      if (before !== undefined) return before.tools;
      throw error;
    }
    const listing: Listing = {
      clients,
      perServer,
      tools: Object.freeze(perServer.flatMap((server) => server.tools)),
    };
    this.loaded = listing;
    return listing.tools;
  }

  toString(): string {
    return `McpToolGroup(metadata=${describeMetadata(this.metadata)}, toolsInitialized=${this.toolsInitialized})`;
  }
}
