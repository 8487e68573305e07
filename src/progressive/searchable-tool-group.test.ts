import { describe, expect, it } from "vitest";
import { ToolGroup } from "../prompt/tool-group.js";
import { InputSchema } from "../tool/input-schema.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import type { SearchableTool } from "./searchable-tool.js";
import { SearchableToolGroup } from "./searchable-tool-group.js";

function tools(count: number): Tool[] {
  return Array.from({ length: count }, (_, index) =>
    Tool.create(`tool_${index}`, `Does thing ${index}`, InputSchema.empty(), () => ToolResult.text("ok")),
  );
}

function group(list: readonly Tool[] | (() => readonly Tool[])): ToolGroup {
  return ToolGroup.of({ role: "web", description: "Web research" }, list);
}

describe("SearchableToolGroup", () => {
  it("offers a group above the threshold as find_<role>_tools over all its tools", async () => {
    const searchable = SearchableToolGroup.above(group(tools(4)), 3);
    const offered = await searchable.tools();
    expect(offered.map((tool) => tool.definition.name)).toEqual(["find_web_tools"]);
    const search = offered[0] as SearchableTool;
    expect(search.definition.description).toBe(
      "Find tools for: Web research. Describe what you want to do; the best matching tools become available to call.",
    );
    expect(search.innerTools).toHaveLength(4);
    expect(searchable.metadata.role).toBe("web");
  });

  it("passes a group at or under the threshold through unchanged", async () => {
    const list = tools(3);
    const offered = await SearchableToolGroup.above(group(list), 3).tools();
    expect(offered.map((tool) => tool.definition.name)).toEqual(["tool_0", "tool_1", "tool_2"]);
  });

  it("keeps one search tool while the group's list stays the same, and makes a new one when it changes", async () => {
    let list: readonly Tool[] = Object.freeze(tools(2));
    const inner: ToolGroup = { metadata: group([]).metadata, tools: async () => list };
    const searchable = SearchableToolGroup.above(inner, 0);
    const first = await searchable.tools();
    expect(await searchable.tools()).toBe(first);
    list = Object.freeze(tools(5));
    const second = await searchable.tools();
    expect(second).not.toBe(first);
    expect((second[0] as SearchableTool).innerTools).toHaveLength(5);
  });
});
