import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentPlatform, Logger, McpClients, McpToolFactory, McpToolGroup } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { recordingLogger } from "./support/mcp-fixture.js";

// MCP servers that misbehave: a tool list with tools no client can use.

const BAD_TOOLS_SERVER = fileURLToPath(new URL("./fixtures/mcp/bad-tools-server.mjs", import.meta.url));
const badTools = { command: process.execPath, args: [BAD_TOOLS_SERVER] };

const cleanups: (() => Promise<void> | void)[] = [];
let warnings: string[] = [];
beforeEach(() => {
  const recording = recordingLogger();
  warnings = recording.warnings;
  const previous = Logger.setDefault(recording.logger);
  cleanups.push(() => {
    Logger.setDefault(previous);
  });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

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
