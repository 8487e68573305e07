import { ConfigurationError } from "../errors/configuration-error.js";
import { Logger } from "../tool/logger.js";
import type { McpAuthorizationResponse } from "./authorization-response.js";
import { toolGroupsFromConfig } from "./config-tool-groups.js";
import { McpClient } from "./mcp-client.js";
import { type McpPlatformSupport, provideMcpPlatformSupport } from "./mcp-platform-support.js";
import { type McpPrompt, mcpPrompt } from "./mcp-prompt.js";
import type { McpConfigOptions } from "./mcp-server-config.js";
import { resolveMcpServerConfig } from "./resolve-mcp-server-config.js";

/** What one server answered to {@link McpClients.connectAll}: its tool count, or why it could not be started. */
export type McpServerStartup =
  | { readonly name: string; readonly tools: number }
  | { readonly name: string; readonly error: string };

/** Anything holding an `mcpServers` block (a config file's contents, Claude Desktop's config). */
export interface McpServersHolder {
  /** Server names to `{ command, args, env, cwd }` (stdio) or `{ url, headers }` / `{ type: "http", url }`. */
  readonly mcpServers?: Readonly<Record<string, unknown>>;
}

/**
 * The root AgentPlatform's `mcpServers` and config-defined tool groups,
 * provided as this module is evaluated. A pure call that {@link McpClients}
 * refers to, so a bundler keeps it exactly when it keeps McpClients: in the
 * built package this module shares a chunk with code every program uses, so a
 * bare call would keep the MCP layer in every bundle.
 */
const PLATFORM_SUPPORT = /* @__PURE__ */ provideMcpPlatformSupport({
  clientsFromConfig: (config, options) => McpClients.fromConfig(config, options),
  toolGroupsFromConfig,
});

/**
 * The MCP servers of a config, each connected on first use. `close()` ends
 * every connection and child process.
 */
export class McpClients {
  /** What this class provides to the root AgentPlatform (referenced here so a bundler keeps the two together). */
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the reference is the point (see PLATFORM_SUPPORT)
  private static platformSupport(): McpPlatformSupport {
    return PLATFORM_SUPPORT;
  }

  private constructor(readonly clients: readonly McpClient[]) {}

  /**
   * Clients for the servers of an `mcpServers` block in the format of Claude
   * Desktop, Cursor and VS Code. `${VAR}` and `${env:VAR}` are expanded now (a
   * missing variable is a {@link ConfigurationError} naming it); nothing starts
   * or connects until a tool is needed. A server marked `disabled: true` is
   * left out, unchecked.
   */
  static fromConfig(config: McpServersHolder, options: McpConfigOptions = {}): McpClients {
    const servers = Object.entries(config.mcpServers ?? {}).filter(([, server]) => !isDisabled(server));
    return new McpClients(
      servers.map(([name, server]) => new McpClient(resolveMcpServerConfig(name, server, options))),
    );
  }

  /** A set of clients made elsewhere. */
  static of(...clients: McpClient[]): McpClients {
    return new McpClients([...clients]);
  }

  /** The server names, in config order. */
  get names(): readonly string[] {
    return this.clients.map((client) => client.name);
  }

  /** The client of the server called `name`, or `undefined`. */
  get(name: string): McpClient | undefined {
    return this.clients.find((client) => client.name === name);
  }

  /** The clients of `names`; an unknown name is a {@link ConfigurationError} listing the servers. */
  select(names: readonly string[]): McpClients {
    return new McpClients(
      names.map((name) => {
        const client = this.get(name);
        if (!client) {
          throw new ConfigurationError(
            `No MCP server named '${name}'. Configured servers: [${this.names.join(", ")}]`,
          );
        }
        return client;
      }),
    );
  }

  /**
   * Connects every server now and lists its tools (the chapter's eager start),
   * all at once; resolves to what each server answered. A server that cannot
   * be reached is a warning and an `error` entry, never a rejection: its
   * groups try again on their next use. Logs the startup line
   * `MCP is available (eager mode). Found N client(s): …` at info level.
   */
  async connectAll(
    options: { readonly signal?: AbortSignal; readonly logger?: Logger } = {},
  ): Promise<McpServerStartup[]> {
    const logger = options.logger ?? Logger.current();
    const results = await Promise.all(
      this.clients.map(async (client): Promise<McpServerStartup> => {
        try {
          const tools = await client.listTools(options.signal ? { signal: options.signal } : {});
          return { name: client.name, tools: tools.length };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          logger.warn(`MCP server '${client.name}' could not be started at startup: ${message}`, {
            server: client.name,
          });
          return { name: client.name, error: message };
        }
      }),
    );
    const summary = results
      .map((result) =>
        "error" in result ? `${result.name} failed` : `${result.name} (${result.tools} tools)`,
      )
      .join(", ");
    logger.info(`MCP is available (eager mode). Found ${results.length} client(s): ${summary || "none"}.`);
    return results;
  }

  /**
   * Finishes the authorization-code flow of the server called `serverName`
   * with what its redirect URL received: the callback URL (its `iss` is then
   * checked), its query, or the bare code (see {@link McpClient.finishAuth});
   * an unknown name is a {@link ConfigurationError}.
   */
  async finishAuth(serverName: string, response: McpAuthorizationResponse): Promise<void> {
    return this.select([serverName]).clients[0]!.finishAuth(response);
  }

  /**
   * The prompt `name` of the server called `serverName`, filled in with
   * `args`: its messages for `runner.respond(prompt.messages)`, or its text for
   * `runner.generateText(prompt.text)`.
   */
  async prompt(
    serverName: string,
    name: string,
    args: Readonly<Record<string, string>> = {},
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<McpPrompt> {
    return mcpPrompt(this.select([serverName]).clients[0]!, name, args, options);
  }

  /** Closes every server (child processes end; HTTP sessions are terminated). */
  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
  }

  /** A short description, for logs. */
  toString(): string {
    return `McpClients([${this.names.join(", ")}])`;
  }
}

function isDisabled(server: unknown): boolean {
  return (
    typeof server === "object" && server !== null && (server as { disabled?: unknown }).disabled === true
  );
}
