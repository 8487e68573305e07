// The lexical ranker's word rules of issue #37, each through the public
// ToolSearchIndex API: a request that finds its tool only because of the rule.
import { describe, expect, it } from "vitest";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { ToolSearchIndex } from "./tool-search-index.js";

function tool(name: string, description: string, ...params: string[]): Tool {
  const schema = InputSchema.of(...params.map((param) => Param.string(param, param, { required: false })));
  return Tool.create(name, description, schema, () => ToolResult.text("ok"));
}

function names(index: ToolSearchIndex, query: string, limit = 5): string[] {
  return index.search(query, limit).map((hit) => hit.tool.definition.name);
}

describe("ToolSearchIndex: related action words", () => {
  it("relates press and tap to click", () => {
    const catalogue = ToolSearchIndex.of([
      tool("reload", "Reload the page"),
      tool("click", "Click an element on the page", "selector"),
    ]);
    expect(names(catalogue, "press the submit button on the page", 1)).toEqual(["click"]);
    expect(names(catalogue, "tap the menu on the page", 1)).toEqual(["click"]);
  });

  it("relates choose to select", () => {
    const catalogue = ToolSearchIndex.of([
      tool("describe_field", "Describe the country field"),
      tool("select", "Select a value of the country field", "selector", "value"),
    ]);
    expect(names(catalogue, "choose Germany in the country field", 1)).toEqual(["select"]);
  });

  it("relates compare to diff and differences", () => {
    const catalogue = ToolSearchIndex.of([
      tool("create_branch", "Create a branch", "name"),
      tool("git_diff", "Shows differences between branches", "target"),
      tool("merge_branch", "Merge a branch", "name"),
    ]);
    expect(names(catalogue, "compare my branch against main", 1)).toEqual(["git_diff"]);
  });

  it("reads a reversive un- verb as removing (unblock an address: delete its block)", () => {
    const catalogue = ToolSearchIndex.of([
      tool("list_suppressions", "List suppressions"),
      tool("create_suppression", "Create a suppression", "email"),
      tool("delete_suppression", "Permanently delete a suppression", "email"),
    ]);
    expect(names(catalogue, "unblock this suppression", 1)).toEqual(["delete_suppression"]);
    // Only the listed verbs: `unread` is no removal.
    expect(names(catalogue, "unread suppressions", 1)).toEqual(["list_suppressions"]);
  });
});

describe("ToolSearchIndex: phrasal verbs", () => {
  it("reads mouse over as hover", () => {
    const catalogue = ToolSearchIndex.of([
      tool("move_file", "Move a file", "source", "destination"),
      tool("move_card", "Move a card to another list", "card_id"),
      tool("hover", "Hover an element on the page", "selector"),
    ]);
    expect(names(catalogue, "move the mouse over the menu so it expands", 1)).toEqual(["hover"]);
  });
});

describe("ToolSearchIndex: clitics", () => {
  const catalogue = ToolSearchIndex.of([
    tool("get_status", "Get the user's status"),
    tool("sendgrid_list_suppressions", "List SendGrid suppressions"),
    tool("list_shirts", "List the T-shirts of the shop"),
  ]);

  it("reads a possessive or contracted 's as its word alone", () => {
    expect(names(catalogue, "what's new")).toEqual([]);
    expect(names(catalogue, "sendgrid's suppressions", 1)).toEqual(["sendgrid_list_suppressions"]);
    expect(names(catalogue, "the user’s status", 1)).toEqual(["get_status"]);
  });

  it("drops a negated auxiliary (don't, isn't) and keeps the words of any other apostrophe", () => {
    // Not the `t` of T-shirts.
    expect(names(catalogue, "don't")).toEqual([]);
    expect(names(catalogue, "isn't it")).toEqual([]);
    expect(names(catalogue, "o'status", 1)).toEqual(["get_status"]);
  });
});
