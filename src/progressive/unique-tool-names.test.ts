import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { DelegatingTool } from "../tool/abstract-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { UnfoldingTool } from "./unfolding-tool.js";

function leaf(name: string): Tool {
  return Tool.create(name, `The ${name} tool`, () => ToolResult.text(`${name} ran`));
}

describe("checkUniqueToolNames (through UnfoldingTool's factories)", () => {
  it("refuses a child named like its facade, which the guide would shadow", () => {
    expect(() => UnfoldingTool.of("search", "Search", [leaf("search")])).toThrow(
      /UnfoldingTool 'search' would offer two different tools named 'search' \(the facade search and search > search\)/,
    );
  });

  it("refuses a child named like the facade's context tool", () => {
    expect(() => UnfoldingTool.of("db", "Database", [leaf("db_context")])).toThrow(ConfigurationError);
  });

  it("refuses two different leaves with one name in nested facades", () => {
    const inner = UnfoldingTool.of("inner", "Inner", [leaf("query")]);
    expect(() => UnfoldingTool.of("outer", "Outer", [leaf("query"), inner])).toThrow(
      /two different tools named 'query' \(outer > query and outer > inner > query\)/,
    );
  });

  it("sees through decorators around a nested facade", () => {
    const inner = new DelegatingTool(UnfoldingTool.of("inner", "Inner", [leaf("query")]));
    expect(() => UnfoldingTool.of("outer", "Outer", [leaf("query"), inner])).toThrow(ConfigurationError);
  });

  it("refuses two sibling facades whose children share a name", () => {
    const reads = UnfoldingTool.of("reads", "Reads", [leaf("get")]);
    const writes = UnfoldingTool.of("writes", "Writes", [leaf("get")]);
    expect(() => UnfoldingTool.of("api", "API", [reads, writes])).toThrow(/named 'get'/);
  });

  it("accepts one tool instance reached along two paths", () => {
    const shared = leaf("shared");
    const a = UnfoldingTool.of("a", "A", [shared]);
    const b = UnfoldingTool.of("b", "B", [shared]);
    expect(UnfoldingTool.of("root", "Root", [a, b, shared]).innerTools).toHaveLength(3);
  });

  it("checks again when a facade is renamed onto a child's name", () => {
    const facade = UnfoldingTool.of("tools", "Tools", [leaf("query")]);
    expect(() => facade.withName("query")).toThrow(ConfigurationError);
  });

  it("checks tools added later with withTools", () => {
    const facade = UnfoldingTool.of("tools", "Tools", [UnfoldingTool.of("inner", "Inner", [leaf("query")])]);
    expect(() => facade.withTools(leaf("query"))).toThrow(/named 'query'/);
  });
});
