// Searchable MCP tool groups against the real SDK fixture server over stdio:
// McpToolGroup.create({ searchable: true }), `"searchable": true` on a server
// in mcpServers, AgentPlatform.create({ searchableAbove }) and McpToolFactory.searchable.
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { AgentPlatform, McpClients, McpToolFactory, McpToolGroup, runToolLoop } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { fixtureConfig, tempLog } from "./support/mcp-fixture.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function log(): string {
  const { dir, log } = tempLog();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return log;
}

function serve(extra: Record<string, unknown> = {}): McpClients {
  const clients = McpClients.fromConfig({ mcpServers: { fixture: fixtureConfig(log(), extra) } });
  cleanups.push(() => clients.close());
  return clients;
}

const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "Weather in Lisbon?" }] }];

describe("McpToolGroup.create({ searchable: true })", () => {
  it("offers one search tool; a search appends the matching MCP tools, which then run on the server", async () => {
    const group = McpToolGroup.create({
      role: "fixture",
      description: "Fixture tools",
      clients: serve(),
      searchable: true,
    });
    const tools = await group.tools();
    expect(tools.map((tool) => tool.definition.name)).toEqual(["find_fixture_tools"]);
    expect(await group.tools()).toBe(tools);
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("find_fixture_tools", { query: "what is the weather like in a city", limit: 2 }),
      ScriptedModel.toolCall("get_weather", { city: "Lisbon" }),
      ScriptedModel.toolCall("find_fixture_tools", { query: "current weather" }),
      ScriptedModel.text("Sunny."),
    );
    const result = await runToolLoop({ model, prompt, tools });
    expect(result.text).toBe("Sunny.");
    const [first, second, third, fourth] = model.toolNamesPerRequest;
    expect(first).toEqual(["find_fixture_tools"]);
    expect(second?.slice(0, 2)).toEqual(["find_fixture_tools", "get_weather"]);
    expect(third).toEqual(second);
    expect(fourth?.slice(0, second?.length)).toEqual(second);
    expect(new Set(fourth).size).toBe(fourth?.length);
    expect(model.requests[2]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: "Sunny and 21°C in Lisbon",
    });
  });

  it("finds a server's tools by the server's name, which no tool's name or description has", async () => {
    const clients = McpClients.fromConfig({ mcpServers: { almanac: fixtureConfig(log()) } });
    cleanups.push(() => clients.close());
    const group = McpToolGroup.create({
      role: "reference",
      description: "Reference",
      clients,
      searchable: true,
    });
    const [search] = await group.tools();
    const answer = await search?.call(JSON.stringify({ query: "ask the almanac", limit: 3 }));
    expect(answer?.content).toMatch(/^Found 3 tools for "ask the almanac"/);
  });
});

describe('"searchable": true on a server in mcpServers', () => {
  it("puts that server's tools of a config tool group behind find_<role>_tools", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("find_weather_tools", { query: "weather for a city" }),
      ScriptedModel.toolCall("get_weather", { city: "Lisbon" }),
      ScriptedModel.text("It is sunny."),
    );
    const platform = AgentPlatform.create({
      models: { default: model },
      mcpServers: { tools: fixtureConfig(log(), { searchable: true }) },
      toolGroups: { weather: { description: "Get weather for location", tools: ["weather", "echo"] } },
    });
    cleanups.push(() => platform.close());
    const answer = await platform.ai().withToolGroup("weather").generateText("Weather in Lisbon?");
    expect(answer).toBe("It is sunny.");
    expect(model.toolNamesPerRequest[0]).toEqual(["find_weather_tools"]);
    expect(model.toolNamesPerRequest[1]?.[1]).toBe("get_weather");
    expect(model.requests[2]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: "Sunny and 21°C in Lisbon",
    });
  });

  it("rejects a searchable flag that is not a boolean, naming the field", () => {
    expect(() =>
      AgentPlatform.create({
        models: {},
        mcpServers: { tools: fixtureConfig(log(), { searchable: "yes" }) },
      }),
    ).toThrow(/mcpServers\.tools\.searchable/);
  });
});

describe('"searchable": true on a config tool group', () => {
  it("puts all the group's tools behind find_<role>_tools, and rejects a flag that is not a boolean", async () => {
    const platform = AgentPlatform.create({
      models: {},
      mcpServers: { tools: fixtureConfig(log()) },
      toolGroups: { weather: { description: "Weather", tools: ["weather"], searchable: true } },
    });
    cleanups.push(() => platform.close());
    const offered = await platform.toolGroups.get("weather")?.tools();
    expect(offered?.map((tool) => tool.definition.name)).toEqual(["find_weather_tools"]);
    expect(() =>
      AgentPlatform.create({
        models: {},
        toolGroups: { weather: { tools: ["weather"], searchable: "yes" as unknown as boolean } },
      }),
    ).toThrow("toolGroups.weather.searchable must be true or false.");
  });
});

describe("AgentPlatform.create({ searchableAbove })", () => {
  it("makes groups with more tools than the threshold searchable and leaves smaller ones flat", async () => {
    const platform = AgentPlatform.create({
      models: {},
      mcpServers: { tools: fixtureConfig(log()) },
      toolGroups: {
        weather: { description: "Weather", tools: ["weather", "weather.lookup"] },
        everything: { description: "Every fixture tool", tools: [""] },
      },
      searchableAbove: 3,
    });
    cleanups.push(() => platform.close());
    const weather = await platform.toolGroups.get("weather")?.tools();
    const everything = await platform.toolGroups.get("everything")?.tools();
    expect(weather?.map((tool) => tool.definition.name)).toEqual(["get_weather", "weather_lookup"]);
    expect(everything?.map((tool) => tool.definition.name)).toEqual(["find_everything_tools"]);
  });

  it("rejects a threshold that is not a whole number", () => {
    expect(() => AgentPlatform.create({ models: {}, searchableAbove: -1 })).toThrow(
      "searchableAbove must be a whole number of tools (0 or more), got -1.",
    );
  });
});

describe("McpToolFactory.searchable", () => {
  it("searches the server's tools that pass the filter", async () => {
    const factory = McpToolFactory.create(serve());
    const search = await factory.searchable("find_db", "Database tools", (tool) => tool.name.includes("_"));
    expect(search.innerTools.map((tool) => tool.definition.name)).toEqual([
      "get_weather",
      "meta_echo",
      "db_read",
      "run_query_fast",
    ]);
    const result = await search.call(JSON.stringify({ query: "run a query", limit: 1 }));
    expect(result.content).toContain("- run_query_fast: Runs a query");
  });
});
