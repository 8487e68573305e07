import { ConfigurationError } from "../errors/configuration-error.js";
import {
  AgentPlatform as BaseAgentPlatform,
  type AgentPlatformOptions as BaseAgentPlatformOptions,
} from "../platform/agent-platform.js";
import { SearchableToolGroup } from "../progressive/searchable-tool-group.js";
import { ToolGroup } from "../prompt/tool-group.js";
import type { ToolGroupConfig } from "./config-tool-groups.js";
import type { McpClients } from "./mcp-clients.js";
import type { McpElicitationHandler } from "./mcp-elicitation.js";
import { mcpPlatformSupport, NO_MCP_CLIENTS, requireMcpPlatformSupport } from "./mcp-platform-support.js";
import type { McpConfigOptions } from "./mcp-server-config.js";
import type { ToolCallContextMcpMetaConverter } from "./tool-call-context-mcp-meta-converter.js";

/** Options of {@link AgentPlatform.create}: the platform's, plus MCP servers and config-defined tool groups. */
export interface AgentPlatformOptions extends Omit<BaseAgentPlatformOptions, "toolGroups"> {
  /** MCP servers in the Claude Desktop / Cursor / VS Code format; connected on first use unless `lazy: false`. @default {} */
  readonly mcpServers?: Readonly<Record<string, unknown>>;
  /**
   * `true` (the default): MCP servers connect on first use, so a server that
   * authenticates with the caller's forwarded token (absent at startup) works.
   * `false`: every server starts connecting now, in the background, as the
   * chapter's default does (`await platform.mcpClients.connectAll()` to wait
   * for it); a server that cannot start is a warning and is tried again on use.
   * @default true
   */
  readonly lazy?: boolean;
  /**
   * Tool groups runners can request by role: `ToolGroup`s, or a config block
   * of roles to `{ description, provider, tools }` over the `mcpServers`
   * (a server tool is included when its name ends with a listed name).
   * @default []
   */
  readonly toolGroups?: Iterable<ToolGroup> | Readonly<Record<string, ToolGroupConfig | ToolGroup>>;
  /** Where `${VAR}` in `mcpServers` is looked up and relative `cwd`s resolve. @default process.env, process.cwd() */
  readonly mcpConfig?: McpConfigOptions;
  /** Turns each MCP call's context into `_meta`. @default ToolCallContextMcpMetaConverter.passThrough() */
  readonly metaConverter?: ToolCallContextMcpMetaConverter;
  /**
   * Offer every tool group of `toolGroups` with more than this many tools
   * behind one search tool, `find_<role>_tools` (`UnfoldingTool.searchable`).
   * @default undefined (no group is made searchable)
   */
  readonly searchableAbove?: number;
  /** Answers MCP servers' elicitations (`elicitation/create`) for servers without an `onElicitation` of their own. @default a form request of the agent process the call runs in, else decline */
  readonly onElicitation?: McpElicitationHandler;
}

function isIterable(value: unknown): value is Iterable<ToolGroup> {
  return typeof (value as Iterable<unknown>)?.[Symbol.iterator] === "function";
}

/** The groups of `options.toolGroups`: instances as given, config entries as MCP groups over `clients`. */
function toolGroupsOf(options: AgentPlatformOptions, clients: McpClients): ToolGroup[] {
  const groups = options.toolGroups;
  if (groups === undefined) return [];
  if (isIterable(groups)) return [...groups];
  const instances: ToolGroup[] = [];
  const configured: Record<string, unknown> = {};
  for (const [role, entry] of Object.entries(groups)) {
    if (ToolGroup.isToolGroup(entry)) instances.push(entry);
    else configured[role] = entry;
  }
  if (Object.keys(configured).length === 0) return instances;
  const converter = options.metaConverter ? { metaConverter: options.metaConverter } : {};
  const { toolGroupsFromConfig } = requireMcpPlatformSupport("config-defined toolGroups");
  return [...instances, ...toolGroupsFromConfig(clients, configured, converter)];
}

/** `groups`, each searchable above `above` tools when `above` is set. */
function searchableAbove(groups: ToolGroup[], above: number | undefined): ToolGroup[] {
  if (above === undefined) return groups;
  if (!Number.isInteger(above) || above < 0) {
    throw new ConfigurationError(
      `searchableAbove must be a whole number of tools (0 or more), got ${above}.`,
    );
  }
  return groups.map((group) => SearchableToolGroup.above(group, above));
}

/**
 * The platform (models, roles, tool groups, agents and processes) with MCP:
 * `AgentPlatform.create({ models, mcpServers, toolGroups })` connects nothing
 * until a runner asks for a group (`withToolGroup("weather")`); `close()`
 * ends every MCP server it started.
 */
export class AgentPlatform extends BaseAgentPlatform {
  /** The MCP servers of `mcpServers` (none connected until a tool is needed). */
  readonly mcpClients: McpClients;

  protected constructor(options: AgentPlatformOptions, clients: McpClients) {
    super({
      ...options,
      toolGroups: searchableAbove(toolGroupsOf(options, clients), options.searchableAbove),
    });
    this.mcpClients = clients;
  }

  /** A platform with `options`' models, roles, MCP servers and tool groups. */
  static override create(options: AgentPlatformOptions): AgentPlatform {
    // Sampling servers ask the platform's models, found by role when a request comes.
    let platform: AgentPlatform | undefined;
    const samplingModel = async (role: string) => {
      const resolved = await (platform as AgentPlatform).models.resolveAsync({ role });
      return { model: resolved.model, name: resolved.name };
    };
    const clients = mcpClientsOf(options, {
      samplingModel,
      ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
      ...options.mcpConfig,
    });
    platform = new AgentPlatform(options, clients);
    if (clients.clients.length > 0) {
      if (options.lazy === false) void clients.connectAll({ logger: platform.logger });
      else
        platform.logger.info(
          `MCP is available (lazy-init mode). Found ${clients.clients.length} client(s). Tool groups will be initialized on first use.`,
        );
    }
    return platform;
  }

  /** Ends every MCP server the platform started (child processes exit; HTTP sessions end), then closes the runner. */
  override async close(): Promise<void> {
    await this.mcpClients.close();
    await super.close();
  }
}

/** The clients of `options.mcpServers`; without servers, none (and the MCP layer is not needed). */
function mcpClientsOf(options: AgentPlatformOptions, mcpConfig: McpConfigOptions): McpClients {
  const mcpServers = options.mcpServers ?? {};
  const support =
    Object.keys(mcpServers).length > 0 ? requireMcpPlatformSupport("mcpServers") : mcpPlatformSupport();
  return support ? support.clientsFromConfig({ mcpServers }, mcpConfig) : NO_MCP_CLIENTS;
}

/** Same as {@link AgentPlatform.create}. */
export function createAgentPlatform(options: AgentPlatformOptions): AgentPlatform {
  return AgentPlatform.create(options);
}
