// The MCP part of the one AgentPlatform (src/platform/agent-platform.ts), which
// is composed with it rather than subclassed: the MCP clients' module calls
// `provideMcpPlatformSupport` as it is evaluated (importing the library
// evaluates it), and the platform asks the support for the clients of
// `mcpServers` and the tool groups of a config block. A bundler leaves it out
// of a program that uses no MCP export, so such a bundle holds neither our MCP
// code nor the MCP SDK (nor its stdio transport's `child_process`), and
// `AgentPlatform.create({ mcpServers })` there says what to do.
//
// The options and `mcpClients`' type are declared here too, merged into the
// platform layer's interfaces, so the platform names no type of this layer.

import type { LanguageModelV3 } from "@ai-sdk/provider";
import { ConfigurationError } from "../errors/configuration-error.js";
import {
  type McpPlatformOptions,
  type PlatformMcp,
  type PlatformMcpInput,
  type PlatformModels,
  providePlatformMcpSupport,
} from "../platform/platform-mcp.js";
import { SearchableToolGroup } from "../progressive/searchable-tool-group.js";
import { ToolGroup } from "../prompt/tool-group.js";
import type { ToolGroupConfig, toolGroupsFromConfig } from "./config-tool-groups.js";
import type { McpClients, McpServersHolder } from "./mcp-clients.js";
import type { McpElicitationHandler } from "./mcp-elicitation.js";
import type { McpConfigOptions } from "./mcp-server-config.js";
import type { ToolCallContextMcpMetaConverter } from "./tool-call-context-mcp-meta-converter.js";

declare module "../platform/platform-mcp.js" {
  /** The options the MCP layer adds to `AgentPlatformOptions`. */
  interface McpPlatformOptions {
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

  /** The MCP layer's types the platform names. */
  interface McpPlatformTypes {
    readonly clients: McpClients;
    readonly toolGroupConfig: ToolGroupConfig;
  }
}

/** What the MCP clients' module gives the platform. */
export interface McpPlatformSupport {
  /** `McpClients.fromConfig`. */
  readonly clientsFromConfig: (config: McpServersHolder, options: McpConfigOptions) => McpClients;
  /** `toolGroupsFromConfig`. */
  readonly toolGroupsFromConfig: typeof toolGroupsFromConfig;
}

/** Called once by the MCP clients' module as it is evaluated; returns `provided`. */
export function provideMcpPlatformSupport(provided: McpPlatformSupport): McpPlatformSupport {
  providePlatformMcpSupport({ attach: (options, models) => attach(provided, options, models) });
  return provided;
}

type Options = McpPlatformOptions & PlatformMcpInput;

function isIterable(value: unknown): value is Iterable<ToolGroup> {
  return typeof (value as Iterable<unknown>)?.[Symbol.iterator] === "function";
}

/** The MCP part of a platform given `options`. */
function attach(support: McpPlatformSupport, options: Options, models: PlatformModels): PlatformMcp {
  const mcpConfig: McpConfigOptions = {
    samplingModel: async (role: string) => {
      const { model, name } = await models(role);
      return { model: model as LanguageModelV3, name };
    },
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
    ...options.mcpConfig,
  };
  const clients = support.clientsFromConfig({ mcpServers: options.mcpServers ?? {} }, mcpConfig);
  const toolGroups = searchableAbove(toolGroupsOf(support, options, clients), options.searchableAbove);
  return {
    clients,
    toolGroups,
    started(logger) {
      if (clients.clients.length === 0) return;
      if (options.lazy === false) void clients.connectAll({ logger });
      else
        logger.info(
          `MCP is available (lazy-init mode). Found ${clients.clients.length} client(s). Tool groups will be initialized on first use.`,
        );
    },
  };
}

/** The groups of `options.toolGroups`: instances as given, config entries as MCP groups over `clients`. */
function toolGroupsOf(support: McpPlatformSupport, options: Options, clients: McpClients): ToolGroup[] {
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
  return [...instances, ...support.toolGroupsFromConfig(clients, configured, converter)];
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
