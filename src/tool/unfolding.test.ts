import { describe, expect, it } from "vitest";
import { Tool } from "./tool.js";
import { ToolResult } from "./tool-result.js";
import { isNestedTool, Unfolding } from "./unfolding.js";

const leaf = Tool.create("leaf", "Leaf", () => ToolResult.text(""));

describe("Unfolding", () => {
  it("attaches an unfolding a result carries, invisible to JSON", () => {
    const result = Unfolding.attach(ToolResult.text("unfolded"), { tools: [leaf], exclusive: false });
    expect(Unfolding.of(result)?.tools).toEqual([leaf]);
    expect(JSON.stringify(result)).toBe('{"kind":"text","content":"unfolded"}');
    expect(Unfolding.of(ToolResult.text("plain"))).toBeUndefined();
  });
});

describe("isNestedTool", () => {
  it("is true only for tools with innerTools", () => {
    expect(isNestedTool(leaf)).toBe(false);
    expect(isNestedTool(Object.assign(Object.create(leaf), { innerTools: [leaf] }))).toBe(true);
  });
});
