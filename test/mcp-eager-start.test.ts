// Lazy by default, eager on request: `lazy: false` and `mcpClients.connectAll()`
// start real MCP servers (SDK fixtures over stdio) at startup, with the chapter's log line.
import { describe, expect, it } from "vitest";
import { AgentPlatform, type Logger, McpClients } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { eventually, searchServerConfig } from "./support/mcp-fixture.js";

function recording(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
  return { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") }, lines };
}

const ghost = { command: "/nonexistent/mcp-server", args: [] };

describe("McpClients.connectAll", () => {
  it("starts every server now, says what each answered, and never rejects for one that cannot start", async () => {
    const clients = McpClients.fromConfig({ mcpServers: { alpha: searchServerConfig("alpha"), ghost } });
    const { logger, lines } = recording();
    try {
      const results = await clients.connectAll({ logger });
      expect(results[0]).toEqual({ name: "alpha", tools: 4 });
      expect(results[1]).toMatchObject({ name: "ghost", error: expect.stringContaining("ENOENT") });
      expect(clients.get("alpha")?.connected).toBe(true);
      expect(lines.at(-1)).toBe(
        "info: MCP is available (eager mode). Found 2 client(s): alpha (4 tools), ghost failed.",
      );
      expect(
        lines.some((line) => line.startsWith("warn: MCP server 'ghost' could not be started at startup")),
      ).toBe(true);
    } finally {
      await clients.close();
    }
  });
});

describe("AgentPlatform.create({ mcpServers })", () => {
  it("connects nothing by default (lazy), saying so in the chapter's words", async () => {
    const { logger, lines } = recording();
    const platform = AgentPlatform.create({
      models: { default: ScriptedModel.of() },
      mcpServers: { alpha: searchServerConfig("alpha") },
      logger,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(platform.mcpClients.get("alpha")?.connected).toBe(false);
      expect(lines).toEqual([
        "info: MCP is available (lazy-init mode). Found 1 client(s). Tool groups will be initialized on first use.",
      ]);
    } finally {
      await platform.close();
    }
  });

  it("starts every server at creation with lazy: false", async () => {
    const { logger, lines } = recording();
    const platform = AgentPlatform.create({
      models: { default: ScriptedModel.of() },
      mcpServers: { alpha: searchServerConfig("alpha") },
      lazy: false,
      logger,
    });
    try {
      await eventually(() => platform.mcpClients.get("alpha")?.connected === true, 10_000);
      await eventually(() => lines.some((line) => line.includes("MCP is available (eager mode)")), 10_000);
    } finally {
      await platform.close();
    }
  });
});
