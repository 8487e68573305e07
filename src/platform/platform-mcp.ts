// The MCP part of an AgentPlatform, composed in: the platform asks the MCP
// layer (when it is loaded) for the clients of `mcpServers` and the tool
// groups of a config block, and never imports it. The MCP layer provides
// itself when its clients' module is evaluated (importing the library
// evaluates it); a bundler leaves it out of a program that uses no MCP export,
// so such a bundle holds neither our MCP code nor the MCP SDK. The option and
// `mcpClients` types are declared by the MCP layer too (declaration merging
// into the two interfaces below).

import { ConfigurationError } from "../errors/configuration-error.js";
import { ToolGroup } from "../prompt/tool-group.js";
import type { Logger } from "../tool/logger.js";

/**
 * The options the MCP layer adds to `AgentPlatformOptions` (`mcpServers`,
 * `lazy`, `mcpConfig`, `metaConverter`, `searchableAbove`, `onElicitation`),
 * declared in src/mcp/mcp-platform-support.ts.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from the MCP layer
export interface McpPlatformOptions {}

/** The MCP layer's types the platform names: `clients` (`McpClients`) and `toolGroupConfig` (`ToolGroupConfig`). */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from the MCP layer
export interface McpPlatformTypes {}

/** `McpClients` when the MCP layer's types are in the program, else what any clients answer. */
export type PlatformMcpClients = McpPlatformTypes extends { readonly clients: infer Clients }
  ? Clients
  : McpClientsShape;

/** A config entry of `toolGroups` (`ToolGroupConfig`) when the MCP layer's types are in the program. */
export type ConfiguredToolGroup = McpPlatformTypes extends { readonly toolGroupConfig: infer Config }
  ? Config
  : never;

/** What every `mcpClients` answers, with or without MCP servers. */
export interface McpClientsShape {
  readonly clients: readonly unknown[];
  readonly names: readonly string[];
  connectAll(options?: { readonly logger?: Logger }): Promise<readonly unknown[]>;
  close(): Promise<void>;
}

/** What the MCP layer adds to one platform. */
export interface PlatformMcp {
  /** The clients of `mcpServers` (none connected yet). */
  readonly clients: McpClientsShape;
  /** The platform's tool groups: `toolGroups` with config entries made MCP groups, searchable above `searchableAbove`. */
  readonly toolGroups: readonly ToolGroup[];
  /** Called once the platform is built: starts connecting (`lazy: false`) or says MCP is available. */
  started(logger: Logger): void;
}

/** The MCP layer as the platform sees it: builds a platform's MCP part from its options. */
export interface PlatformMcpSupport {
  /** The MCP part of a platform given `options`; `models` resolves a role for servers that sample. */
  attach(options: McpPlatformOptions & PlatformMcpInput, models: PlatformModels): PlatformMcp;
}

/** The platform's options the MCP part reads besides its own. */
export interface PlatformMcpInput {
  readonly toolGroups?: Iterable<ToolGroup> | Readonly<Record<string, unknown>>;
}

/** The platform's models by role, for MCP servers that ask for a completion (`sampling/createMessage`). */
export type PlatformModels = (role: string) => Promise<{ readonly model: unknown; readonly name: string }>;

let support: PlatformMcpSupport | undefined;

/** Called once by the MCP layer as its clients' module is evaluated; returns `provided`. */
export function providePlatformMcpSupport(provided: PlatformMcpSupport): PlatformMcpSupport {
  support = provided;
  return provided;
}

/** The clients of a platform without MCP: none, nothing to connect or close. */
const NO_CLIENTS: McpClientsShape = Object.freeze({
  clients: Object.freeze([]),
  names: Object.freeze([]),
  get: () => undefined,
  select(names: readonly string[]) {
    if (names.length === 0) return NO_CLIENTS;
    throw new ConfigurationError(`No MCP server named '${names[0]}'. Configured servers: []`);
  },
  connectAll: async () => [],
  close: async () => undefined,
  toString: () => "McpClients([])",
});

function isIterable(value: unknown): value is Iterable<ToolGroup> {
  return typeof (value as Iterable<unknown>)?.[Symbol.iterator] === "function";
}

/** A {@link ConfigurationError} saying what to do when a bundler left the MCP layer out. */
function missing(what: string): ConfigurationError {
  return new ConfigurationError(
    `AgentPlatform.create was given ${what}, but the MCP layer is not in this program: a bundler left it out because nothing else uses MCP. Use McpClients once (for example \`McpClients.fromConfig({ mcpServers })\`) in the same program, or import the unbundled package.`,
  );
}

/**
 * The MCP part of a platform given `options`: the MCP layer's when it is
 * loaded; without it, no clients and the given tool groups, or a
 * {@link ConfigurationError} for an option only the MCP layer understands.
 */
export function attachMcp(
  options: McpPlatformOptions & PlatformMcpInput,
  models: PlatformModels,
): PlatformMcp {
  if (support) return support.attach(options, models);
  const mcp = options as { readonly mcpServers?: object; readonly searchableAbove?: number };
  if (mcp.mcpServers !== undefined && Object.keys(mcp.mcpServers).length > 0) throw missing("mcpServers");
  if (mcp.searchableAbove !== undefined) throw missing("searchableAbove");
  const groups = options.toolGroups ?? [];
  let toolGroups: ToolGroup[];
  if (isIterable(groups)) toolGroups = [...groups];
  else {
    const entries = Object.values(groups);
    toolGroups = entries.filter((entry) => ToolGroup.isToolGroup(entry));
    if (toolGroups.length < entries.length) throw missing("config-defined toolGroups");
  }
  return { clients: NO_CLIENTS, toolGroups, started: () => undefined };
}
