// Code mode over MCP tools of the real SDK fixture server (stdio): the program
// calls the server's tools as functions, and the search + execute pair finds
// them by what they do. Each inner call goes over the wire through the gate.
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { CodeModeTool, McpClients, McpToolGroup, runToolLoop } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { fixtureConfig, tempLog } from "./support/mcp-fixture.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fixtureTools() {
  const { dir, log } = tempLog();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const clients = McpClients.fromConfig({ mcpServers: { fixture: fixtureConfig(log) } });
  cleanups.push(() => clients.close());
  const group = McpToolGroup.create({ role: "fixture", description: "Fixture tools", clients });
  return group.tools();
}

const prompt = [
  { role: "user" as const, content: [{ type: "text" as const, text: "Weather in two cities?" }] },
];

describe("CodeModeTool over MCP tools (stdio)", () => {
  it("declares the server's tools and runs a program that calls them concurrently", async () => {
    const tools = await fixtureTools();
    const code = CodeModeTool.of("run_code", "Fixture server tools.", tools);
    expect(code.definition.description).toContain("get_weather(args: { city: string");
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("run_code", {
        code: `const [a, b] = await Promise.all([tools.get_weather({ city: "Lisbon" }), tools.get_weather({ city: "Oslo" })]);
let failed;
try { await tools.fails({}); } catch (e) { failed = e.message; }
return { a, b, failed };`,
      }),
      ScriptedModel.text("Done."),
    );
    const result = await runToolLoop({ model, prompt, tools: [code] });
    expect(result.text).toBe("Done.");
    const output = model.requests[1]?.toolResults[0]?.output as { type: string; value: string };
    expect(output.type).toBe("text");
    const value = JSON.parse(output.value) as { a: string; b: string; failed: string };
    expect(value.a).toContain("Lisbon");
    expect(value.b).toContain("Oslo");
    expect(value.failed.length).toBeGreaterThan(0);
  }, 30_000);

  it("search + execute: the model finds the declaration by search, then calls it from code", async () => {
    const tools = await fixtureTools();
    const pair = CodeModeTool.searchable("fixture_code", "Fixture server tools.", tools);
    expect(pair.map((tool) => tool.definition.name)).toEqual(["fixture_code_search", "fixture_code"]);
    expect(pair[1].definition.description).not.toContain("get_weather");
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("fixture_code_search", { query: "current weather for a city", limit: 2 }),
      ScriptedModel.toolCall("fixture_code", { code: 'return await tools.get_weather({ city: "Lisbon" });' }),
      ScriptedModel.text("Sunny."),
    );
    await runToolLoop({ model, prompt, tools: [...pair] });
    const found = model.requests[1]?.toolResults[0]?.output as { value: string };
    expect(found.value).toContain("declare const tools: {");
    expect(found.value).toContain("get_weather(args:");
    const ran = model.requests[2]?.toolResults[0]?.output as { value: string };
    expect(ran.value).toContain("Lisbon");
  }, 30_000);
});
