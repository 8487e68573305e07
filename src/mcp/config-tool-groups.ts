import { ConfigurationError } from "../errors/configuration-error.js";
import { ToolGroupPermission } from "../prompt/tool-group.js";
import type { McpClients } from "./mcp-clients.js";
import { McpToolGroup } from "./mcp-tool-group.js";
import type { ToolCallContextMcpMetaConverter } from "./tool-call-context-mcp-meta-converter.js";

/** A tool group defined in config, by role (the reference's `embabel.agent.platform.tools.includes.<role>`). */
export interface ToolGroupConfig {
  /** What the group's tools do. @default the role */
  readonly description?: string;
  /** Who supplies the tools. @default "embabel" */
  readonly provider?: string;
  /** A server tool is included when its name ends with one of these. */
  readonly tools: readonly string[];
  /** The servers to take tools from. @default every configured server */
  readonly servers?: readonly string[];
  /** @default ["INTERNET_ACCESS"] */
  readonly permissions?: readonly ToolGroupPermission[];
  /** A server that can't be started fails the interaction instead of contributing no tools with a warning. @default false */
  readonly required?: boolean;
  /** Offer the group's tools behind one search tool, `find_<role>_tools`. @default false (only servers with `searchable: true`) */
  readonly searchable?: boolean;
}

function checkGroup(role: string, config: unknown): ToolGroupConfig {
  const group = config as Partial<ToolGroupConfig> | null;
  const where = `toolGroups.${role}`;
  if (typeof group !== "object" || group === null) {
    throw new ConfigurationError(
      `${where} must be an object: { "description", "provider", "tools": [...] }.`,
    );
  }
  if (!Array.isArray(group.tools) || group.tools.some((name) => typeof name !== "string")) {
    throw new ConfigurationError(
      `${where}.tools must be a list of tool names (a server tool is included when its name ends with one).`,
    );
  }
  for (const field of ["description", "provider"] as const) {
    if (group[field] !== undefined && typeof group[field] !== "string") {
      throw new ConfigurationError(`${where}.${field} must be a string.`);
    }
  }
  if (group.required !== undefined && typeof group.required !== "boolean") {
    throw new ConfigurationError(`${where}.required must be true or false.`);
  }
  if (group.searchable !== undefined && typeof group.searchable !== "boolean") {
    throw new ConfigurationError(`${where}.searchable must be true or false.`);
  }
  if (group.servers !== undefined && !Array.isArray(group.servers)) {
    throw new ConfigurationError(`${where}.servers must be a list of server names.`);
  }
  return group as ToolGroupConfig;
}

/**
 * The lazy {@link McpToolGroup}s of a `toolGroups` config block, over
 * `clients`. Unknown servers and malformed entries are
 * {@link ConfigurationError}s naming the field.
 */
export function toolGroupsFromConfig(
  clients: McpClients,
  groups: Readonly<Record<string, unknown>>,
  options: { readonly metaConverter?: ToolCallContextMcpMetaConverter } = {},
): McpToolGroup[] {
  return Object.entries(groups).map(([role, raw]) => {
    const config = checkGroup(role, raw);
    const suffixes = [...config.tools];
    return McpToolGroup.create({
      role,
      description: config.description ?? role,
      provider: config.provider ?? "embabel",
      permissions: config.permissions ?? [ToolGroupPermission.INTERNET_ACCESS],
      clients: config.servers ? clients.select(config.servers) : clients,
      filter: (tool) => suffixes.some((suffix) => tool.name.endsWith(suffix)),
      ...(options.metaConverter ? { metaConverter: options.metaConverter } : {}),
      ...(config.required !== undefined ? { required: config.required } : {}),
      ...(config.searchable ? { searchable: true } : {}),
    });
  });
}
