import { describe, expect, it } from "vitest";
import {
  AgentPlatform,
  BlackboardTools,
  InputSchema,
  McpClients,
  McpToolFactory,
  McpToolGroup,
  Param,
  Tool,
  ToolResult,
} from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { recordWarningsPerTest, searchServerConfig } from "./support/mcp-fixture.js";

// Tool-name clashes with real stdio servers: two servers offering the same
// names, and servers offering the name of an application or built-in tool.

const { warnings, cleanups } = recordWarningsPerTest();

function platformWith(model: ScriptedModel, servers: Record<string, unknown>): AgentPlatform {
  const platform = AgentPlatform.create({
    models: { default: model },
    mcpServers: servers,
    toolGroups: { web: { tools: ["search", "fetch", "lookup", "blackboard_list"] } },
  });
  cleanups.push(() => platform.close());
  return platform;
}

/** What the model was told for each tool result of a request. */
function told(model: ScriptedModel, request: number): unknown[] {
  return (model.requests[request]?.toolResults ?? []).map((part) => part.output);
}

describe("MCP tool names that clash", () => {
  it("offers the tools of two servers sharing names as <server>_<tool>, each reaching its own server", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "alpha_search", args: { query: "mcp" } },
        { name: "beta_search", args: { query: "mcp" } },
      ]),
      ScriptedModel.text("done"),
    ]);
    const platform = platformWith(model, {
      alpha: searchServerConfig("alpha"),
      beta: searchServerConfig("beta"),
    });
    const answer = await platform.ai().withToolGroup("web").generateText("Search both");
    expect(answer).toBe("done");
    expect(model.requests[0]?.toolNames).toEqual([
      "alpha_search",
      "alpha_fetch",
      "alpha_lookup",
      "alpha_blackboard_list",
      "beta_search",
      "beta_fetch",
      "beta_lookup",
      "beta_blackboard_list",
    ]);
    expect(told(model, 1)).toEqual([
      { type: "text", value: "alpha: results for mcp" },
      { type: "text", value: "beta: results for mcp" },
    ]);
  });

  it("reports each clash once on the log, not on every interaction", async () => {
    const model = new ScriptedModel([ScriptedModel.text("one"), ScriptedModel.text("two")]);
    const platform = platformWith(model, {
      alpha: searchServerConfig("alpha"),
      beta: searchServerConfig("beta"),
    });
    await platform.ai().withToolGroup("web").generateText("first");
    await platform.ai().withToolGroup("web").generateText("second");
    const searchWarnings = warnings.filter((warning) => warning.includes("'search'"));
    expect(searchWarnings).toEqual([
      "Tool name clash: another tool is already named 'search', so the tool of MCP server 'alpha' is offered as 'alpha_search'.",
      "Tool name clash: another tool is already named 'search', so the tool of MCP server 'beta' is offered as 'beta_search'.",
    ]);
    expect(warnings).toHaveLength(8);
    expect(model.requests[1]?.toolNames).toEqual(model.requests[0]?.toolNames);
  });

  it("keeps the application's tool name and moves the server's tool to <server>_<tool>", async () => {
    const lookup = Tool.create(
      "lookup",
      "The application's own lookup",
      InputSchema.of(Param.string("key", "What to look up")),
      async () => ToolResult.text("app lookup"),
    );
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "lookup", args: { key: "k" } },
        { name: "evil_lookup", args: {} },
      ]),
      ScriptedModel.text("done"),
    ]);
    const platform = platformWith(model, { evil: searchServerConfig("evil") });
    await platform.ai().withTool(lookup).withToolGroup("web").generateText("Look it up");
    expect(model.requests[0]?.toolNames).toEqual([
      "lookup",
      "search",
      "fetch",
      "evil_lookup",
      "blackboard_list",
    ]);
    expect(told(model, 1)).toEqual([
      { type: "text", value: "app lookup" },
      { type: "text", value: "evil: looked up" },
    ]);
    expect(warnings).toEqual([
      "Tool name clash: another tool is already named 'lookup', so the tool of MCP server 'evil' is offered as 'evil_lookup'.",
    ]);
  });

  it("moves a server's tool off the name of a built-in facade's child before the first request", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("blackboard", {}),
      ScriptedModel.toolCalls([
        { name: "blackboard_list", args: {} },
        { name: "evil_blackboard_list", args: {} },
      ]),
      ScriptedModel.text("done"),
    ]);
    const platform = platformWith(model, { evil: searchServerConfig("evil") });
    const answer = await platform
      .ai()
      .withTool(BlackboardTools.create())
      .withToolGroup("web")
      .generateText("What is on the board?");
    expect(answer).toBe("done");
    expect(model.requests[0]?.toolNames).toEqual([
      "blackboard",
      "search",
      "fetch",
      "lookup",
      "evil_blackboard_list",
    ]);
    expect(model.requests[1]?.toolNames).toContain("blackboard_list");
    const outputs = told(model, 2) as { value: string }[];
    expect(outputs[1]).toEqual({ type: "text", value: "evil: board listed" });
    expect(outputs[0]?.value).not.toContain("evil");
  });

  it("renames a server's tool inside a facade when it unfolds next to an application tool of that name", async () => {
    const clients = McpClients.fromConfig({ mcpServers: { evil: searchServerConfig("evil") } });
    cleanups.push(() => clients.close());
    const facade = await McpToolFactory.create(clients).unfoldingByName("evil_tools", "Evil's tools", [
      "search",
      "fetch",
    ]);
    const search = Tool.create("search", "The application's search", async () => ToolResult.text("app"));
    const model = new ScriptedModel([
      ScriptedModel.toolCall("evil_tools", {}),
      ScriptedModel.toolCalls([
        { name: "search", args: {} },
        { name: "evil_search", args: { query: "q" } },
      ]),
      ScriptedModel.text("done"),
    ]);
    const platform = AgentPlatform.create({ models: { default: model } });
    cleanups.push(() => platform.close());
    await platform.ai().withTool(search).withTool(facade).generateText("Search");
    expect(model.requests[1]?.toolNames).toEqual([
      "search",
      "evil_tools",
      "evil_search",
      "fetch",
      "evil_tools_context",
    ]);
    expect(told(model, 2)).toEqual([
      { type: "text", value: "app" },
      { type: "text", value: "evil: results for q" },
    ]);
  });

  it("makes one group over two servers list distinct names for every consumer", async () => {
    const clients = McpClients.fromConfig({
      mcpServers: { "Alpha Search!": searchServerConfig("alpha"), beta: searchServerConfig("beta") },
    });
    cleanups.push(() => clients.close());
    const group = McpToolGroup.create({
      role: "web",
      description: "Web",
      clients,
      filter: (tool) => tool.name === "fetch",
    });
    const facade = await McpToolFactory.create(clients).unfoldingByName("web", "Web", ["fetch"]);
    expect(facade.innerTools.map((tool) => tool.definition.name)).toEqual([
      "Alpha_Search_fetch",
      "beta_fetch",
    ]);
    const tools = await group.tools();
    expect(tools.map((tool) => tool.definition.name)).toEqual(["Alpha_Search_fetch", "beta_fetch"]);
    const model = new ScriptedModel([
      ScriptedModel.toolCall("Alpha_Search_fetch", { url: "u" }),
      ScriptedModel.text("done"),
    ]);
    const platform = AgentPlatform.create({ models: { default: model } });
    cleanups.push(() => platform.close());
    await platform.ai().withToolGroup(group).generateText("Fetch");
    expect(model.requests[0]?.toolNames).toEqual(["Alpha_Search_fetch", "beta_fetch"]);
    expect(told(model, 1)).toEqual([{ type: "text", value: "alpha: page u" }]);
  });

  it("still refuses two application tools with one name", async () => {
    const model = new ScriptedModel([ScriptedModel.text("unused")]);
    const platform = AgentPlatform.create({ models: { default: model } });
    cleanups.push(() => platform.close());
    const one = Tool.create("search", "One", async () => ToolResult.text("1"));
    const two = Tool.create("search", "Two", async () => ToolResult.text("2"));
    await expect(platform.ai().withTool(one).withTool(two).generateText("hi")).rejects.toThrow(
      /Two different tools are named 'search'/,
    );
  });
});
