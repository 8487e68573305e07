import type { LlmReference } from "../prompt/llm-reference.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { normalizeToolName } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import type { McpClient, McpResourceInfo, ReadResourceResult } from "./mcp-client.js";
import { clientList, type McpClientsLike } from "./mcp-tool-loading.js";

/** A resource a server listed, with the server that has it. */
export interface ListedMcpResource extends McpResourceInfo {
  readonly server: McpClient;
}

/** The resources of every server of `clients` that offers any (a server without the capability contributes none). */
export async function listMcpResources(
  clients: McpClientsLike,
  options: { readonly signal?: AbortSignal } = {},
): Promise<ListedMcpResource[]> {
  const lists = await Promise.all(
    clientList(clients).map(async (server) => {
      if (!(await server.hasResources(options))) return [];
      return (await server.listResources(options)).map((resource) => ({ ...resource, server }));
    }),
  );
  return lists.flat();
}

/** A resource's contents as text for the LLM: text as it is, binary as a line naming its type and size. */
export function resourceText(result: ReadResourceResult): string {
  return result.contents
    .map((content) =>
      "text" in content && typeof content.text === "string"
        ? content.text
        : `[binary ${content.mimeType ?? "content"}, ${Math.floor((String((content as { blob?: string }).blob ?? "").length * 3) / 4)} bytes, ${content.uri}]`,
    )
    .join("\n");
}

/**
 * The tool `name` (`<role>_read_resource`) that reads one of `resources` by
 * URI; its description lists them. An unknown URI is answered in-band with the list.
 */
export function readResourceTool(name: string, resources: readonly ListedMcpResource[]): Tool {
  const byUri = new Map(resources.map((resource) => [resource.uri, resource]));
  const listing = describeResources(resources);
  return Tool.create(
    normalizeToolName(name),
    `Reads a resource by its URI. Available resources:\n${listing}`,
    InputSchema.of(Param.string("uri", "The URI of the resource to read, one of those listed")),
    ToolMetadata.DEFAULT,
    async (input, _context, options) => {
      let uri: unknown;
      try {
        uri = (JSON.parse(input) as { uri?: unknown }).uri;
      } catch {
        uri = undefined;
      }
      const resource = typeof uri === "string" ? byUri.get(uri) : undefined;
      if (resource === undefined) {
        return ToolResult.error(`Unknown resource '${String(uri)}'. Available resources:\n${listing}`);
      }
      try {
        const result = await resource.server.readResource(
          resource.uri,
          options?.signal ? { signal: options.signal } : {},
        );
        return ToolResult.text(resourceText(result));
      } catch (error) {
        return ToolResult.error(error instanceof Error ? error.message : String(error));
      }
    },
  );
}

function describeResources(resources: readonly ListedMcpResource[]): string {
  if (resources.length === 0) return "(none)";
  return resources
    .map((resource) => {
      const about = resource.description ? `: ${resource.description}` : "";
      const type = resource.mimeType ? ` (${resource.mimeType})` : "";
      return `- ${resource.uri} — ${resource.title ?? resource.name}${type}${about}`;
    })
    .join("\n");
}

/** Options of {@link McpResourceReference.create}. */
export interface McpResourceReferenceOptions {
  /** The reference's name; its tool is `<name>_read_resource`. @default the first server's name */
  readonly name?: string;
  /** What the resources are, for the LLM. @default "Resources of MCP server(s) …" */
  readonly description?: string;
  readonly signal?: AbortSignal;
}

/**
 * MCP servers' resources as an {@link LlmReference}: `withReference(reference)`
 * puts the list of resources in the system prompt and offers the tool
 * `<name>_read_resource`. The list is taken when the reference is created.
 */
export class McpResourceReference implements LlmReference {
  private constructor(
    readonly name: string,
    readonly description: string,
    readonly resources: readonly ListedMcpResource[],
    private readonly tool: Tool,
  ) {}

  /** Lists the resources of `clients` (connecting them) and makes the reference. */
  static async create(
    clients: McpClientsLike,
    options: McpResourceReferenceOptions = {},
  ): Promise<McpResourceReference> {
    const servers = clientList(clients);
    const resources = await listMcpResources(clients, options.signal ? { signal: options.signal } : {});
    const name = options.name ?? servers[0]?.name ?? "mcp";
    const description =
      options.description ?? `Resources of MCP server(s) ${servers.map((server) => server.name).join(", ")}`;
    return new McpResourceReference(
      name,
      description,
      resources,
      readResourceTool("read_resource", resources),
    );
  }

  notes(): string {
    return `Read one with the read_resource tool. Resources:\n${describeResources(this.resources)}`;
  }

  tools(): readonly Tool[] {
    return [this.tool];
  }
}
