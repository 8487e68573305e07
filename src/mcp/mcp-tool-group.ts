import { ToolGroup, type ToolGroupMetadata, type ToolGroupPermission } from "../prompt/tool-group.js";
import type { Tool } from "../tool/tool.js";
import type { McpTool } from "./mcp-tool.js";
import { clientList, loadServerTools, type McpClientsLike, type McpToolFilter } from "./mcp-tool-loading.js";
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
}

function describeMetadata(metadata: ToolGroupMetadata): string {
  return `ToolGroupMetadata(role=${metadata.role}, name=${metadata.name}, provider=${metadata.provider}, version=${metadata.version}, permissions=[${metadata.permissions.join(", ")}], description=${metadata.description})`;
}

/**
 * A {@link ToolGroup} backed by MCP servers, loaded just in time: nothing is
 * listed or connected until `tools()` is first called (so a user's token can
 * be in place by then); concurrent first calls load once; a failed load
 * rejects with an error naming the server and its cause, and the next call
 * tries again.
 */
export class McpToolGroup implements ToolGroup {
  readonly metadata: ToolGroupMetadata;
  private loaded: readonly McpTool[] | undefined;
  private loading: Promise<readonly McpTool[]> | undefined;

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

  /** The group's tools, loaded on the first call and kept; `signal` stops waiting (the shared load goes on). */
  tools(options: { readonly signal?: AbortSignal } = {}): Promise<readonly Tool[]> {
    if (this.loaded) return Promise.resolve(this.loaded);
    const loading = this.sharedLoad();
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

  /** The one load in flight (started if none is). */
  private sharedLoad(): Promise<readonly McpTool[]> {
    this.loading ??= this.load().then(
      (tools) => {
        this.loaded = tools;
        this.loading = undefined;
        return tools;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  private async load(): Promise<readonly McpTool[]> {
    const { filter, metaConverter } = this.options;
    const perServer = await Promise.all(
      clientList(this.options.clients).map((client) => loadServerTools(client, filter, metaConverter)),
    );
    return Object.freeze(perServer.flat());
  }

  toString(): string {
    return `McpToolGroup(metadata=${describeMetadata(this.metadata)}, toolsInitialized=${this.toolsInitialized})`;
  }
}
