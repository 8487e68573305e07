import { ToolGroup, type ToolGroupMetadata, type ToolGroupPermission } from "../prompt/tool-group.js";
import { Logger } from "../tool/logger.js";
import type { Tool } from "../tool/tool.js";
import { resolveNameClashes } from "../tool/tool-name-clashes.js";
import type { McpClient } from "./mcp-client.js";
import { listMcpResources, readResourceTool } from "./mcp-resources.js";
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
   * A server that can't be started or reached fails the group's `tools()`
   * (and so the interaction asking for it) instead of contributing no tools
   * with a warning. @default false
   */
  readonly required?: boolean;
  /**
   * Offer the tools behind one search tool, `find_<role>_tools`
   * (`UnfoldingTool.searchable`), instead of one by one.
   * @default false (only the tools of servers configured with `searchable: true`)
   */
  readonly searchable?: boolean;
  /**
   * Also offer the servers' resources through one tool, `<role>_read_resource`,
   * whose description lists them (listed when the group loads its tools).
   * @default false
   */
  readonly resources?: boolean;
}

/** What a group listed, server by server, with the list versions the listings reflect. */
interface Listing {
  readonly clients: readonly McpClient[];
  readonly perServer: readonly ServerTools[];
  readonly tools: readonly Tool[];
  /** Why each server that contributed nothing this time could not be listed (tried again on next use). */
  readonly unavailable: readonly unknown[];
}

/** Whether no server's tool list changed since `listing` was made (a server that failed never is current). */
function isCurrent(listing: Listing): boolean {
  const { clients, perServer } = listing;
  for (let index = 0; index < clients.length; index++) {
    if ((clients[index] as McpClient).toolListVersion !== perServer[index]?.version) return false;
  }
  return true;
}

/** Whether each server's tools are the very ones `before` had (so its list can be kept as it is). */
function unchanged(before: Listing | undefined, perServer: readonly ServerTools[]): before is Listing {
  return (
    before !== undefined &&
    before.perServer.length === perServer.length &&
    perServer.every((server, index) => server.tools === before.perServer[index]?.tools)
  );
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
 *
 * A server that can't be started or reached contributes no tools, with a
 * warning, as the reference does, and is tried again on the next use; the
 * group's other servers still contribute theirs. A group created with
 * `required: true`, or asked with `tools({ required: true })`, rejects instead.
 */
export class McpToolGroup implements ToolGroup {
  readonly metadata: ToolGroupMetadata;
  private loaded: Listing | undefined;
  private loading: Promise<Listing> | undefined;
  private offeredView: { readonly tools: readonly Tool[]; readonly offered: readonly Tool[] } | undefined;

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

  /** Whether the tools have been loaded (from every server). */
  get toolsInitialized(): boolean {
    return this.loaded !== undefined && this.loaded.unavailable.length === 0;
  }

  /**
   * The group's tools: loaded on the first call and kept until a server's list
   * changes; `signal` stops waiting (the shared load goes on). With
   * `required`, a server that can't be listed rejects (with its
   * {@link McpServerError}) instead of contributing no tools with a warning.
   */
  tools(
    options: { readonly signal?: AbortSignal; readonly required?: boolean } = {},
  ): Promise<readonly Tool[]> {
    const loaded = this.loaded;
    if (loaded !== undefined && isCurrent(loaded)) return Promise.resolve(this.offered(loaded.tools));
    const required = options.required === true || this.options.required === true;
    const loading = this.sharedLoad().then((listing) => this.offered(this.answer(listing, required)));
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

  /** The listing's tools; a server that could not be listed rejects when `required`, else is warned about. */
  private answer(listing: Listing, required: boolean): readonly Tool[] {
    const { unavailable } = listing;
    if (unavailable.length === 0) return listing.tools;
    if (required) throw unavailable[0];
    for (const failure of unavailable) {
      const message = failure instanceof Error ? failure.message : String(failure);
      Logger.current().warn(
        `${message.replace(/\.$/, "")}. Tool group '${this.metadata.role}' goes on without its tools, and tries again on its next use (mark the group required to fail instead).`,
        { role: this.metadata.role },
      );
    }
    return listing.tools;
  }

  /** The tools as offered: searchable servers' tools behind a search tool (made again only when the list changes). */
  private offered(tools: readonly Tool[]): readonly Tool[] {
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
  private sharedLoad(): Promise<Listing> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /**
   * Lists the servers whose list changed since the last listing (all of them
   * the first time). If a re-listing fails, the tools listed before are kept
   * (their calls answer in-band while a server is down); a server never
   * listed contributes none and is recorded as unavailable. Either way the
   * next use tries again.
   */
  private async load(): Promise<Listing> {
    const { filter, metaConverter } = this.options;
    const clients = clientList(this.options.clients);
    const before = this.loaded;
    const earlierOf = (client: McpClient, index: number): ServerTools | undefined =>
      before?.clients[index] === client ? before.perServer[index] : undefined;
    const results = await Promise.allSettled(
      clients.map((client, index) => {
        const earlier = earlierOf(client, index);
        if (earlier !== undefined && earlier.version === client.toolListVersion) return earlier;
        return loadServerTools(client, filter, metaConverter, earlier?.tools);
      }),
    );
    const unavailable: unknown[] = [];
    const perServer = results.map((result, index): ServerTools => {
      if (result.status === "fulfilled") return result.value;
      const earlier = earlierOf(clients[index] as McpClient, index);
      if (earlier === undefined || earlier.tools.length === 0) unavailable.push(result.reason);
      // NaN is never current: the server is listed again on the next use.
      return { tools: earlier?.tools ?? [], version: Number.NaN };
    });
    // Two servers offering one name: both tools are offered as `<server>_<tool>`.
    let tools = unchanged(before, perServer)
      ? before.tools
      : Object.freeze([...resolveNameClashes(perServer.flatMap((server) => server.tools))]);
    if (this.options.resources) tools = Object.freeze([...tools, await this.readResourceTool(clients)]);
    const listing: Listing = { clients, perServer, unavailable, tools };
    this.loaded = listing;
    return listing;
  }

  /** `<role>_read_resource` over the resources of the servers that can list theirs now (the others with a warning). */
  private async readResourceTool(clients: readonly McpClient[]): Promise<Tool> {
    const lists = await Promise.all(
      clients.map((client) =>
        listMcpResources([client]).catch((error: unknown) => {
          Logger.current().warn(
            `MCP server '${client.name}' could not list its resources for tool group '${this.metadata.role}': ${error instanceof Error ? error.message : String(error)}`,
            { role: this.metadata.role },
          );
          return [];
        }),
      ),
    );
    return readResourceTool(`${this.metadata.role}_read_resource`, lists.flat());
  }

  toString(): string {
    return `McpToolGroup(metadata=${describeMetadata(this.metadata)}, toolsInitialized=${this.toolsInitialized})`;
  }
}
