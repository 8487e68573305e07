// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
// MCP servers behind OAuth 2.1: a real SDK server on 127.0.0.1 that is its own
// authorization server for the client-credentials grant
// (test/fixtures/mcp/oauth-server.mjs). The client discovers it from the 401,
// gets a token, and sends it as a bearer token.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError, McpClients, McpServerError, McpToolGroup } from "../src/index.js";
import { logLines, startHttpFixture, tempLog } from "./support/mcp-fixture.js";

const OAUTH_SERVER = fileURLToPath(new URL("./fixtures/mcp/oauth-server.mjs", import.meta.url));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function oauthServer(
  env: Record<string, string> = {},
): Promise<{ url: string; issuer: string; log: string }> {
  const { dir, log } = tempLog();
  const { url, child } = await startHttpFixture(log, 0, "http", OAUTH_SERVER, env);
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => {
      child.kill("SIGKILL");
    },
  );
  return { url, issuer: new URL(url).origin, log };
}

function clientsFor(server: Record<string, unknown>, env: Record<string, string> = {}): McpClients {
  const clients = McpClients.fromConfig({ mcpServers: { secure: server } }, { env });
  cleanups.push(() => clients.close());
  return clients;
}

async function whoami(clients: McpClients, greeting: string) {
  const tools = await McpToolGroup.create({ role: "secure", description: "Secure tools", clients }).tools();
  const tool = tools.find((candidate) => candidate.definition.name === "whoami");
  if (!tool) throw new Error(`no whoami among ${tools.map((candidate) => candidate.definition.name)}`);
  return tool.call(JSON.stringify({ greeting }));
}

describe("an MCP server behind OAuth (client credentials)", () => {
  it("discovers the authorization server from the 401, gets one token and sends it as a bearer token", async () => {
    const { url, issuer, log } = await oauthServer();
    const clients = clientsFor(
      { url, oauth: { clientId: "agent", clientSecret: "${MCP_SECRET}", scope: "tools", issuer } },
      { MCP_SECRET: "s3cret" },
    );
    expect(await whoami(clients, "hello")).toMatchObject({ kind: "text", content: "hello, agent" });
    expect(await whoami(clients, "again")).toMatchObject({ content: "again, agent" });
    const lines = logLines(log);
    expect(lines[0]).toBe("mcp refused POST");
    expect(lines.filter((line) => line.startsWith("token issued"))).toEqual([
      "token issued agent scope=tools",
    ]);
    expect(lines.filter((line) => line === "mcp POST with token").length).toBeGreaterThanOrEqual(4);
    expect(lines.filter((line) => line.startsWith("mcp refused"))).toHaveLength(1);
  });

  it("takes any OAuth client provider of the SDK given programmatically", async () => {
    const { url, issuer, log } = await oauthServer();
    const authProvider = new ClientCredentialsProvider({
      clientId: "agent",
      clientSecret: "s3cret",
      expectedIssuer: issuer,
    });
    const clients = clientsFor({ url, authProvider });
    expect(await whoami(clients, "hi")).toMatchObject({ content: "hi, agent" });
    expect(authProvider.tokens()?.token_type).toBe("Bearer");
    expect(logLines(log)).toContain("token issued agent");
  });

  it("fails with an error naming the server and the authorization server's answer, on a wrong secret", async () => {
    const { url, issuer, log } = await oauthServer();
    const clients = clientsFor({ url, oauth: { clientId: "agent", clientSecret: "wrong", issuer } });
    const result = await clients
      .get("secure")
      ?.listTools()
      .catch((error: unknown) => error);
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toMatch(
      /^MCP server 'secure' could not be reached: .*(wrong secret|invalid_client)/,
    );
    expect(logLines(log)).toContain("token refused agent");
    expect(logLines(log)).not.toContain("mcp POST with token");
  });

  it("never sends the secret to an authorization server other than the configured issuer", async () => {
    const { url, log } = await oauthServer();
    const clients = clientsFor({
      url,
      oauth: { clientId: "agent", clientSecret: "s3cret", issuer: "https://login.example.com" },
    });
    const result = await clients
      .get("secure")
      ?.listTools()
      .catch((error: unknown) => error);
    expect((result as Error).message).toMatch(
      /^MCP server 'secure' could not be reached: .*bound to "https:\/\/login\.example\.com"/,
    );
    expect(logLines(log).filter((line) => line.startsWith("token"))).toEqual([]);
  });

  it("without OAuth configured, reports the 401 and does not fall back to HTTP+SSE", async () => {
    const { url, log } = await oauthServer();
    const clients = clientsFor({ url });
    const result = await clients
      .get("secure")
      ?.listTools()
      .catch((error: unknown) => error);
    expect((result as Error).message).toMatch(/^MCP server 'secure' could not be reached: .*401/);
    expect(logLines(log)).toEqual(["mcp refused POST"]);
  });

  it("refuses an incomplete or malformed oauth block, naming the field", () => {
    const config = (oauth: unknown) => ({ mcpServers: { secure: { url: "http://127.0.0.1:1/mcp", oauth } } });
    expect(() => McpClients.fromConfig(config({ clientId: "agent" }))).toThrow(ConfigurationError);
    expect(() => McpClients.fromConfig(config({ clientId: "agent" }))).toThrow(
      /mcpServers\.secure\.oauth\.clientSecret/,
    );
    expect(() => McpClients.fromConfig(config({ clientId: "a", clientSecret: "b", issuer: "nope" }))).toThrow(
      "mcpServers.secure.oauth.issuer is not a URL: 'nope'.",
    );
    expect(() => McpClients.fromConfig(config({ clientId: "a", clientSecret: "b", tenant: "x" }))).toThrow(
      /tenant/,
    );
    expect(() =>
      McpClients.fromConfig(config({ clientId: "a", clientSecret: "${MISSING_SECRET}" }), { env: {} }),
    ).toThrow(
      "mcpServers.secure.oauth.clientSecret uses ${MISSING_SECRET}, but the environment variable MISSING_SECRET is not set.",
    );
    expect(() =>
      McpClients.fromConfig({
        mcpServers: { secure: { url: "http://127.0.0.1:1/mcp", authProvider: "token" } },
      }),
    ).toThrow(/authProvider: must be an OAuthClientProvider/);
  });
});

describe("where an OAuth client secret may go", () => {
  it("without an issuer, goes to an authorization server on the MCP server's own origin (and the SDK warns of nothing)", async () => {
    const warn = vi.spyOn(console, "warn");
    try {
      const { url, log } = await oauthServer();
      const clients = clientsFor({ url, oauth: { clientId: "agent", clientSecret: "s3cret" } });
      expect(await whoami(clients, "hello")).toMatchObject({ kind: "text", content: "hello, agent" });
      expect(logLines(log)).toContain("token issued agent");
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses a foreign authorization server the MCP server names, naming both origins, and sends it nothing", async () => {
    const foreign = await oauthServer();
    const { url, log } = await oauthServer({ FIXTURE_AUTH_SERVER: foreign.issuer });
    const clients = clientsFor({ url, oauth: { clientId: "agent", clientSecret: "s3cret" } });
    const result = await clients
      .get("secure")
      ?.listTools()
      .catch((error: unknown) => error);
    expect(McpServerError.isInstance(result)).toBe(true);
    const own = new URL(url).origin;
    expect((result as Error).message).toContain(
      `MCP server 'secure' could not be reached: it points OAuth at ${foreign.issuer}, but the client secret goes only to its own origin ${own}: refused. If you trust ${foreign.issuer}, set it as oauth.issuer.`,
    );
    const withIssuer = McpClients.fromConfig({
      mcpServers: {
        secure: {
          url,
          oauth: { clientId: "agent", clientSecret: "s3cret", issuer: "https://login.example.com" },
        },
      },
    });
    cleanups.push(() => withIssuer.close());
    await expect(withIssuer.get("secure")?.listTools()).rejects.toThrow(
      `it points OAuth at ${foreign.issuer}, but the client secret goes only to its own origin ${own} or the configured issuer https://login.example.com: refused.`,
    );
    expect(logLines(foreign.log)).toEqual([]);
    expect(logLines(log).filter((line) => line.startsWith("token"))).toEqual([]);
  });

  it("goes to a foreign authorization server when it is the configured issuer", async () => {
    const foreign = await oauthServer();
    const { url, log } = await oauthServer({ FIXTURE_AUTH_SERVER: foreign.issuer });
    const clients = clientsFor({
      url,
      oauth: { clientId: "agent", clientSecret: "s3cret", issuer: foreign.issuer },
    });
    expect(await whoami(clients, "hi")).toMatchObject({ content: "hi, agent" });
    expect(logLines(foreign.log)).toEqual(["token issued agent"]);
    expect(logLines(log).filter((line) => line.startsWith("token"))).toEqual([]);
    expect(logLines(log)).toContain("mcp POST with token");
  });

  it("refuses a token endpoint on another origin than the authorization server's metadata was on", async () => {
    const foreign = await oauthServer();
    const { url, issuer } = await oauthServer({ FIXTURE_TOKEN_ENDPOINT: `${foreign.issuer}/token` });
    for (const oauth of [
      { clientId: "agent", clientSecret: "s3cret" },
      { clientId: "agent", clientSecret: "s3cret", issuer },
    ]) {
      const clients = McpClients.fromConfig({ mcpServers: { secure: { url, oauth } } });
      cleanups.push(() => clients.close());
      const result = await clients
        .get("secure")
        ?.listTools()
        .catch((error: unknown) => error);
      expect((result as Error).message).toMatch(
        new RegExp(
          `it points OAuth at ${foreign.issuer}, but the client secret goes only to its own origin ${issuer}`,
        ),
      );
    }
    expect(logLines(foreign.log)).toEqual([]);
  });

  it("never goes over plain http except to loopback", () => {
    const config = (url: string, oauth: Record<string, string>) => ({
      mcpServers: { crm: { url, oauth: { clientId: "a", clientSecret: "b", ...oauth } } },
    });
    expect(() => McpClients.fromConfig(config("http://crm.example.com/mcp", {}))).toThrow(
      "mcpServers.crm.url is plain http ('http://crm.example.com/mcp'): OAuth client credentials are sent over https only (or http to 127.0.0.1 / localhost).",
    );
    expect(() =>
      McpClients.fromConfig(config("https://crm.example.com/mcp", { issuer: "http://login.example.com" })),
    ).toThrow(/mcpServers\.crm\.oauth\.issuer is plain http/);
    expect(() =>
      McpClients.fromConfig(config("https://crm.example.com/mcp", { issuer: "https://login.example.com" })),
    ).not.toThrow();
    expect(() => McpClients.fromConfig(config("http://localhost:3000/mcp", {}))).not.toThrow();
    // Without OAuth, a plain http server is the user's call (headers they chose to send).
    expect(() =>
      McpClients.fromConfig({ mcpServers: { crm: { url: "http://crm.example.com/mcp" } } }),
    ).not.toThrow();
  });
});
