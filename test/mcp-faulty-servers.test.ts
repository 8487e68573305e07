import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AgentPlatform, McpClients, McpServerError, McpToolFactory, McpToolGroup } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { recordWarningsPerTest, searchServerConfig } from "./support/mcp-fixture.js";

// MCP servers that misbehave: a tool list with tools no client can use, a
// server that can't start.

const BAD_TOOLS_SERVER = fileURLToPath(new URL("./fixtures/mcp/bad-tools-server.mjs", import.meta.url));
const badTools = { command: process.execPath, args: [BAD_TOOLS_SERVER] };

const { warnings, cleanups } = recordWarningsPerTest();

function clientsFor(servers: Record<string, unknown>): McpClients {
  const clients = McpClients.fromConfig({ mcpServers: servers });
  cleanups.push(() => clients.close());
  return clients;
}

describe("a tool list with tools no client can use", () => {
  it("skips each bad tool with a warning and offers the others", async () => {
    const group = McpToolGroup.create({
      role: "r",
      description: "d",
      clients: clientsFor({ bad: badTools }),
    });
    const tools = await group.tools();
    expect(tools.map((tool) => tool.definition.name)).toEqual(["ok"]);
    expect(warnings).toEqual([
      "MCP server 'bad' lists a tool without a name, which is skipped: a name must be a string of 1 to 128 characters.",
      "MCP server 'bad' lists tool '', which is skipped: a name must be a string of 1 to 128 characters.",
      "MCP server 'bad' lists tool 'broken_properties', which is skipped: inputSchema.properties: Invalid input: expected record, received string.",
      "MCP server 'bad' lists tool 'broken_type', which is skipped: inputSchema.type: Invalid input: expected \"object\".",
      "MCP server 'bad' lists tool 'broken_required', which is skipped: inputSchema.required: Invalid input: expected array, received string.",
      "MCP server 'bad' lists tool 'deep', which is skipped: its schema nests more than 256 levels deep.",
      expect.stringMatching(
        /^MCP server 'bad' lists tool 'broken_output', which is skipped: its output schema can't be compiled \(.+\)\.$/,
      ),
    ]);
  });

  it("lets a model use the server's good tool through the loop", async () => {
    const model = new ScriptedModel([ScriptedModel.toolCall("ok", { n: 1 }), ScriptedModel.text("done")]);
    const platform = AgentPlatform.create({
      models: { default: model },
      mcpServers: { bad: badTools },
      toolGroups: { numbers: { tools: ["ok", "deep", "broken_type"] } },
    });
    cleanups.push(() => platform.close());
    expect(await platform.ai().withToolGroup("numbers").generateText("go")).toBe("done");
    expect(model.requests[0]?.toolNames).toEqual(["ok"]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({ type: "text", value: 'ok ran with {"n":1}' });
  });

  it("finds the good tool by name, and says a skipped one is not there", async () => {
    const factory = McpToolFactory.create(clientsFor({ bad: badTools }));
    expect(await (await factory.requiredToolByName("ok")).call('{"n":2}')).toMatchObject({
      content: 'ok ran with {"n":2}',
    });
    await expect(factory.requiredToolByName("deep")).rejects.toThrow(
      "MCP tool 'deep' not found. Available tools: ok",
    );
  });
});

const ghost = { command: "/nonexistent/mcp-server-binary" };

describe("a server that can't start", () => {
  it("gives its group an empty tool list with a warning, and is tried again on the next use", async () => {
    const { entry } = lateServer();
    const clients = clientsFor({ late: { command: process.execPath, args: [entry] } });
    const group = McpToolGroup.create({ role: "web", description: "Web", clients });
    expect(await group.tools()).toEqual([]);
    expect(group.toolsInitialized).toBe(false);
    // The server's stderr is its own warning (it never goes into a message the model may see).
    expect(warnings).toEqual([
      expect.stringMatching(
        /^MCP server 'late' could not be started; its stderr ends with:.*Cannot find module/s,
      ),
      expect.stringMatching(
        /^MCP server 'late' could not be started: .*\. Tool group 'web' goes on without its tools, and tries again on its next use \(mark the group required to fail instead\)\.$/s,
      ),
    ]);
    symlinkSync(fileURLToPath(new URL("./fixtures/mcp/search-server.mjs", import.meta.url)), entry);
    expect((await group.tools()).map((tool) => tool.definition.name)).toEqual([
      "search",
      "fetch",
      "lookup",
      "blackboard_list",
    ]);
    expect(group.toolsInitialized).toBe(true);
    expect(warnings).toHaveLength(2);
  });

  it("leaves the group's other servers working, and the model the tools it has", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("search", { query: "q" }),
      ScriptedModel.text("done"),
    ]);
    const platform = AgentPlatform.create({
      models: { default: model },
      mcpServers: { ghost, alpha: searchServerConfig("alpha") },
      toolGroups: { web: { tools: ["search"] } },
    });
    cleanups.push(() => platform.close());
    expect(await platform.ai().withToolGroup("web").generateText("go")).toBe("done");
    expect(model.requests[0]?.toolNames).toEqual(["search"]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: "alpha: results for q",
    });
    expect(warnings).toEqual([expect.stringMatching(/^MCP server 'ghost' could not be started: .*ENOENT/)]);
  });

  it("fails a group marked required, with the server's error", async () => {
    const group = McpToolGroup.create({
      role: "web",
      description: "Web",
      clients: clientsFor({ ghost }),
      required: true,
    });
    await expect(group.tools()).rejects.toSatisfy(McpServerError.isInstance);
    expect(warnings).toEqual([]);
  });

  it("fails a request that names the tools it requires, saying which server failed", async () => {
    const model = new ScriptedModel([ScriptedModel.text("unused")]);
    const platform = AgentPlatform.create({
      models: { default: model },
      mcpServers: { ghost },
      toolGroups: { web: { tools: ["search"] } },
    });
    cleanups.push(() => platform.close());
    await expect(
      platform
        .ai()
        .withToolGroup({ role: "web", requiredToolNames: ["search"] })
        .generateText("hi"),
    ).rejects.toThrow(
      /^Required tool group with role='web' could not be resolved: Tool group 'web' failed to load its tools: MCP server 'ghost' could not be started: .*ENOENT/,
    );
    expect(model.requests).toHaveLength(0);
  });

  it("is left out of a factory's facade with a warning, and named by requiredToolByName", async () => {
    const factory = McpToolFactory.create(clientsFor({ ghost, alpha: searchServerConfig("alpha") }));
    const facade = await factory.unfoldingByName("web", "Web", ["search"]);
    expect(facade.innerTools.map((tool) => tool.definition.name)).toEqual(["search"]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^MCP server 'ghost' could not be started: .*ENOENT.*\. Its tools are left out\.$/,
      ),
    ]);
    await expect(factory.requiredToolByName("missing")).rejects.toThrow(
      /^MCP tool 'missing' not found\. Available tools: blackboard_list, fetch, lookup, search \(unreachable: MCP server 'ghost' could not be started/,
    );
  });
});

/** A folder whose `server.mjs` does not exist yet (a server that can't start until it does). */
function lateServer(): { dir: string; entry: string } {
  const dir = mkdtempSync(join(tmpdir(), "embabel-late-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, entry: join(dir, "server.mjs") };
}
