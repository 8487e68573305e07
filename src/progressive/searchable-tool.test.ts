import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel, type ScriptedRequest } from "../testing/index.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { UnfoldingTool } from "./unfolding-tool.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Help me." }] }];

function tool(name: string, description: string, ...params: string[]): Tool {
  const schema = InputSchema.of(...params.map((param) => Param.string(param, param, { required: false })));
  return Tool.create(name, description, schema, () => ToolResult.text(`${name} ran`));
}

function catalogue(): Tool[] {
  return [
    tool("slack_post_message", "Post a new message to a Slack channel", "channel_id", "text"),
    tool("slack_list_channels", "List public channels in the workspace", "limit"),
    tool("create_issue", "Create a new issue in a GitHub repository", "owner", "repo", "title", "body"),
    tool(
      "list_issues",
      "List issues in a GitHub repository with filtering options",
      "owner",
      "repo",
      "state",
    ),
    tool("read_file", "Read the complete contents of a file from the file system", "path"),
    tool(
      "write_file",
      "Create a new file or completely overwrite an existing file with new content",
      "path",
      "content",
    ),
    tool("git_log", "Shows the commit logs", "repo_path", "max_count"),
    tool("get_current_time", "Get current time in a specific timezone", "timezone"),
  ];
}

function search(query: string, limit?: number): ScriptedModel["steps"][number] {
  return ScriptedModel.toolCall("find_tools", limit === undefined ? { query } : { query, limit });
}

function facade(tools: readonly Tool[] = catalogue()) {
  return UnfoldingTool.searchable("find_tools", "Find tools for a task by describing it", tools);
}

function resultOf(request: ScriptedRequest | undefined): { type: string; value: unknown } {
  return request?.toolResults[0]?.output as { type: string; value: unknown };
}

/** True when every tool definition of one request reappears byte-identical, at the same position, in the next. */
function onlyAppends(requests: readonly ScriptedRequest[]): boolean {
  return requests.every((request, index) => {
    const next = requests[index + 1];
    return (
      !next ||
      request.tools.every(
        (offered, position) => JSON.stringify(offered) === JSON.stringify(next.tools[position]),
      )
    );
  });
}

describe("UnfoldingTool.searchable", () => {
  it("offers one tool taking a query and an optional limit", () => {
    const { definition } = facade();
    expect(definition.name).toBe("find_tools");
    expect(definition.inputSchema.jsonSchema).toMatchObject({
      required: ["query"],
      properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 20 } },
    });
  });

  it("answers with the matches' names and descriptions and appends exactly those tools", async () => {
    const model = ScriptedModel.of(search("send a message to a slack channel", 2), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [facade()] });
    expect(model.toolNamesPerRequest).toEqual([
      ["find_tools"],
      ["find_tools", "slack_post_message", "slack_list_channels"],
    ]);
    expect(resultOf(model.requests[1])).toEqual({
      type: "text",
      value: [
        'Found 2 tools for "send a message to a slack channel"; you can now call them directly:',
        "- slack_post_message: Post a new message to a Slack channel",
        "- slack_list_channels: List public channels in the workspace",
        "If none of them fits, search again with other words.",
      ].join("\n"),
    });
  });

  it("runs a found tool, then a second search adds only tools not yet offered, keeping the order", async () => {
    const model = ScriptedModel.of(
      search("create a new github issue", 1),
      ScriptedModel.toolCall("create_issue", { owner: "o", repo: "r", title: "t" }),
      search("issues in a github repository, and their commit logs", 3),
      ScriptedModel.text("done"),
    );
    const result = await runToolLoop({ model, prompt, tools: [tool("echo", "Echo the input"), facade()] });
    expect(result.text).toBe("done");
    expect(resultOf(model.requests[2])).toEqual({ type: "text", value: "create_issue ran" });
    expect(model.toolNamesPerRequest).toEqual([
      ["echo", "find_tools"],
      ["echo", "find_tools", "create_issue"],
      ["echo", "find_tools", "create_issue"],
      ["echo", "find_tools", "create_issue", "git_log", "list_issues"],
    ]);
    expect(onlyAppends(model.requests)).toBe(true);
  });

  it("stays in place under a new name or behind a tool decorator, only appending", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("lookup", { query: "slack message", limit: 1 }),
      ScriptedModel.toolCall("lookup", { query: "read a file", limit: 1 }),
      ScriptedModel.text("ok"),
    );
    const decorated: Tool[] = [];
    await runToolLoop({
      model,
      prompt,
      tools: [facade().withName("lookup")],
      toolDecorator: (offered) => {
        decorated.push(offered);
        return offered;
      },
    });
    expect(model.toolNamesPerRequest).toEqual([
      ["lookup"],
      ["lookup", "slack_post_message"],
      ["lookup", "slack_post_message", "read_file"],
    ]);
    expect(onlyAppends(model.requests)).toBe(true);
    expect(decorated.map((offered) => offered.definition.name)).toContain("read_file");
  });

  it("does not add a tool already offered beside the search tool", async () => {
    const tools = catalogue();
    const readFile = tools[4] as Tool;
    const model = ScriptedModel.of(search("read the contents of a file", 2), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [readFile, facade(tools)] });
    expect(model.toolNamesPerRequest).toEqual([
      ["read_file", "find_tools"],
      ["read_file", "find_tools", "write_file"],
    ]);
  });

  it("the default limit is 5", async () => {
    const model = ScriptedModel.of(search("file"), ScriptedModel.text("ok"));
    const many = Array.from({ length: 9 }, (_, index) =>
      tool(`file_tool_${index}`, `Does file thing ${index}`),
    );
    await runToolLoop({ model, prompt, tools: [facade(many)] });
    expect(model.requests[1]?.toolNames).toEqual([
      "find_tools",
      "file_tool_0",
      "file_tool_1",
      "file_tool_2",
      "file_tool_3",
      "file_tool_4",
    ]);
  });

  it("says so in-band when nothing matches, and changes nothing", async () => {
    const model = ScriptedModel.of(search("book a flight to Lisbon"), ScriptedModel.text("sorry"));
    const result = await runToolLoop({ model, prompt, tools: [facade()] });
    expect(result.text).toBe("sorry");
    expect(model.toolNamesPerRequest).toEqual([["find_tools"], ["find_tools"]]);
    expect(resultOf(model.requests[1])).toEqual({
      type: "text",
      value: `No tools matched "book a flight to Lisbon", so the available tools are unchanged. Call 'find_tools' again with other words (the action and the thing it acts on, e.g. "create issue"), or use the tools you already have.`,
    });
  });

  it("finds a nested facade, which unfolds as usual when called", async () => {
    const database = UnfoldingTool.of("database", "Work with the Postgres database", [
      tool("run_sql_query", "Run a read-only SQL query", "sql"),
      tool("list_tables", "List the tables of a schema", "schema"),
    ]);
    const model = ScriptedModel.of(
      search("query the postgres database", 1),
      ScriptedModel.toolCall("database", {}),
      ScriptedModel.toolCall("run_sql_query", { sql: "select 1" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [facade([...catalogue(), database])] });
    expect(model.toolNamesPerRequest).toEqual([
      ["find_tools"],
      ["find_tools", "database"],
      ["find_tools", "database", "run_sql_query", "list_tables", "database_context"],
      ["find_tools", "database", "run_sql_query", "list_tables", "database_context"],
    ]);
    expect(resultOf(model.requests[3])).toEqual({ type: "text", value: "run_sql_query ran" });
    expect(onlyAppends(model.requests)).toBe(true);
  });

  it("finds a facade by what its children do", async () => {
    const database = UnfoldingTool.of("database", "Work with the data store", [
      tool("run_sql_query", "Run a read-only SQL query", "sql"),
    ]);
    const hits = facade([...catalogue(), database]).index.search("run sql", 1);
    expect(hits.map((hit) => hit.tool.definition.name)).toEqual(["database"]);
  });

  it("answers an empty query in-band as an error, changing nothing", async () => {
    const model = ScriptedModel.of(search("   "), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [facade()] });
    expect(model.toolNamesPerRequest).toEqual([["find_tools"], ["find_tools"]]);
    expect(resultOf(model.requests[1])).toMatchObject({ type: "error-text" });
    expect(String(resultOf(model.requests[1]).value)).toContain("The query is empty");
  });

  it.each([0, 21, 2.5, "three"])("answers a bad limit (%s) in-band, changing nothing", async (limit) => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("find_tools", { query: "slack", limit }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [facade()] });
    expect(model.toolNamesPerRequest).toEqual([["find_tools"], ["find_tools"]]);
    expect(String(resultOf(model.requests[1]).value)).toMatch(/limit/);
  });

  it("rejects a bad limit called directly, outside the loop's schema check", async () => {
    const result = await facade().call(JSON.stringify({ query: "slack", limit: 0 }));
    expect(result).toMatchObject({ kind: "error" });
    expect(result.content).toContain("The limit must be a whole number from 1 to 20, got 0.");
  });

  it("answers a catalogue tool called before any search found it as an unknown tool", async () => {
    const model = ScriptedModel.of(
      search("slack message", 1),
      ScriptedModel.toolCall("read_file", { path: "/etc/hosts" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [facade()] });
    expect(model.requests[2]?.toolNames).toEqual(["find_tools", "slack_post_message"]);
    expect(resultOf(model.requests[2])).toMatchObject({ type: "error-text" });
    expect(String(resultOf(model.requests[2]).value)).toContain("Tool 'read_file' does not exist.");
  });

  it("rejects two different catalogue tools with one name", () => {
    expect(() => facade([tool("a", "one"), tool("a", "two")])).toThrow(/two different inner tools named 'a'/);
  });
});
