// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { McpClients } from "./mcp-clients.js";
import { expandVariables, resolveMcpServerConfig } from "./resolve-mcp-server-config.js";

describe("resolveMcpServerConfig", () => {
  it("reads the Claude Desktop stdio format, expanding ${VAR} and ${env:VAR}, cwd relative to the config's folder", () => {
    const resolved = resolveMcpServerConfig(
      "files",
      {
        command: "npx",
        args: ["-y", "server", "${HOME_DIR}"],
        env: { KEY: "${env:API_KEY}" },
        cwd: "servers",
      },
      { env: { HOME_DIR: "/home/me", API_KEY: "k-1" }, baseDir: "/etc/app" },
    );
    expect(resolved).toEqual({
      transport: "stdio",
      name: "files",
      command: "npx",
      args: ["-y", "server", "/home/me"],
      env: { KEY: "k-1" },
      cwd: "/etc/app/servers",
      timeoutMs: 60_000,
      connectTimeoutMs: 60_000,
    });
  });

  it("reads { url, headers } and { type: 'http', url } as Streamable HTTP", () => {
    expect(
      resolveMcpServerConfig("a", { url: "http://127.0.0.1:1/mcp", timeoutMs: 5 }, { env: {} }),
    ).toMatchObject({
      transport: "http",
      url: "http://127.0.0.1:1/mcp",
      timeoutMs: 5,
    });
    expect(
      resolveMcpServerConfig(
        "b",
        { type: "http", url: "http://h/mcp", headers: { A: "${T}" } },
        { env: { T: "x" } },
      ),
    ).toMatchObject({ transport: "http", headers: { A: "x" } });
  });

  it("names the server and the field that is wrong", () => {
    expect(() => resolveMcpServerConfig("x", { args: [] })).toThrow(
      'mcpServers.x needs either "command" (a server started over stdio) or "url" (a server reached over HTTP).',
    );
    expect(() => resolveMcpServerConfig("x", { command: "node", args: "a" })).toThrow(/mcpServers\.x\.args/);
    expect(() => resolveMcpServerConfig("x", { url: "not a url" }, { env: {} })).toThrow(
      "mcpServers.x.url is not a URL: 'not a url'.",
    );
    expect(() => resolveMcpServerConfig("x", { command: "node", shell: true })).toThrow(ConfigurationError);
  });

  it("accepts the keys Cline, Roo and Claude Desktop add (disabled, autoApprove, alwaysAllow, description) and drops them", () => {
    const resolved = resolveMcpServerConfig(
      "files",
      { command: "node", disabled: false, autoApprove: ["read"], alwaysAllow: [], description: "Files" },
      { env: {} },
    );
    expect(resolved).toEqual({
      transport: "stdio",
      name: "files",
      command: "node",
      args: [],
      timeoutMs: 60_000,
      connectTimeoutMs: 60_000,
    });
    expect(() => resolveMcpServerConfig("x", { command: "node", arg: ["typo"] })).toThrow(/arg/);
  });
});

describe("McpClients.fromConfig", () => {
  it("leaves out a server marked disabled, without checking it", () => {
    const clients = McpClients.fromConfig(
      {
        mcpServers: {
          on: { command: "node" },
          off: { command: "${UNSET_VARIABLE}", disabled: true },
        },
      },
      { env: {} },
    );
    expect(clients.names).toEqual(["on"]);
  });
});

describe("expandVariables", () => {
  it("names a missing variable", () => {
    expect(() => expandVariables("${NOPE}", {}, "mcpServers.s.env.K")).toThrow(
      "mcpServers.s.env.K uses ${NOPE}, but the environment variable NOPE is not set.",
    );
  });
});
