import { ConfigurationError } from "../errors/configuration-error.js";
import { McpClient } from "./mcp-client.js";
import { type McpConfigOptions, resolveMcpServerConfig } from "./mcp-server-config.js";

/** Anything holding an `mcpServers` block (a config file's contents, Claude Desktop's config). */
export interface McpServersHolder {
  /** Server names to `{ command, args, env, cwd }` (stdio) or `{ url, headers }` / `{ type: "http", url }`. */
  readonly mcpServers?: Readonly<Record<string, unknown>>;
}

/**
 * The MCP servers of a config, each connected on first use. `close()` ends
 * every connection and child process.
 */
export class McpClients {
  private constructor(readonly clients: readonly McpClient[]) {}

  /**
   * Clients for the servers of an `mcpServers` block in the format of Claude
   * Desktop, Cursor and VS Code. `${VAR}` and `${env:VAR}` are expanded now (a
   * missing variable is a {@link ConfigurationError} naming it); nothing starts
   * or connects until a tool is needed.
   */
  static fromConfig(config: McpServersHolder, options: McpConfigOptions = {}): McpClients {
    const servers = config.mcpServers ?? {};
    return new McpClients(
      Object.entries(servers).map(
        ([name, server]) => new McpClient(resolveMcpServerConfig(name, server, options)),
      ),
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

  /** Closes every server (child processes end; HTTP sessions are terminated). */
  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
  }

  toString(): string {
    return `McpClients([${this.names.join(", ")}])`;
  }
}
