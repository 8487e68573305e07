// How the root AgentPlatform reaches the MCP layer without importing it: the
// MCP clients' module provides it when it is evaluated. Importing the library
// evaluates it; a bundler leaves it out of a program that uses no MCP export, so
// such a bundle holds neither our MCP code nor the MCP SDK (nor its stdio
// transport's `child_process`).

import { ConfigurationError } from "../errors/configuration-error.js";
import type { toolGroupsFromConfig } from "./config-tool-groups.js";
import type { McpClients, McpServersHolder } from "./mcp-clients.js";
import type { McpConfigOptions } from "./mcp-server-config.js";

/** What the platform needs of the MCP layer. */
export interface McpPlatformSupport {
  /** `McpClients.fromConfig`. */
  readonly clientsFromConfig: (config: McpServersHolder, options: McpConfigOptions) => McpClients;
  /** `toolGroupsFromConfig`. */
  readonly toolGroupsFromConfig: typeof toolGroupsFromConfig;
}

let support: McpPlatformSupport | undefined;

/** Called once by the MCP clients' module as it is evaluated; returns `provided`. */
export function provideMcpPlatformSupport(provided: McpPlatformSupport): McpPlatformSupport {
  support = provided;
  return provided;
}

/**
 * The MCP layer, for a platform given `what` (`mcpServers`, config-defined
 * tool groups); a {@link ConfigurationError} saying what to do when a bundler
 * left it out.
 */
export function requireMcpPlatformSupport(what: string): McpPlatformSupport {
  if (support) return support;
  throw new ConfigurationError(
    `AgentPlatform.create was given ${what}, but the MCP layer is not in this program: a bundler left it out because nothing else uses MCP. Use McpClients once (for example \`McpClients.fromConfig({ mcpServers })\`) in the same program, or import the unbundled package.`,
  );
}

/** The MCP layer if it is loaded (always, unless a bundler left it out). */
export function mcpPlatformSupport(): McpPlatformSupport | undefined {
  return support;
}

/**
 * The `mcpClients` of a platform without MCP servers in a program without the
 * MCP layer: no clients, nothing to connect or close.
 */
export const NO_MCP_CLIENTS = Object.freeze({
  clients: Object.freeze([]),
  names: Object.freeze([]),
  get: () => undefined,
  select(names: readonly string[]) {
    if (names.length === 0) return NO_MCP_CLIENTS;
    throw new ConfigurationError(`No MCP server named '${names[0]}'. Configured servers: []`);
  },
  connectAll: async () => [],
  close: async () => undefined,
  toString: () => "McpClients([])",
}) as unknown as McpClients;
