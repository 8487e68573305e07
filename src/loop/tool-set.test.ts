import { describe, expect, it } from "vitest";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { ToolSet } from "./tool-set.js";

const echo = (name: string) => Tool.create(name, name, () => ToolResult.text(name));

describe("ToolSet", () => {
  it("keeps the provider definitions array until the list changes", () => {
    const tools = ToolSet.of([echo("a"), echo("b")]);
    const first = tools.providerDefinitions;
    expect(tools.providerDefinitions).toBe(first);
    tools.add(echo("c"));
    expect(tools.providerDefinitions).not.toBe(first);
    expect(tools.providerDefinitions[0]).toBe(first[0]);
  });

  it("computes a definition once per definition object, shared by decorators that keep it", () => {
    const tool = echo("a");
    const wrapped = { ...tool, definition: tool.definition, metadata: tool.metadata } as Tool;
    expect(ToolSet.of([tool]).providerDefinitions[0]).toBe(ToolSet.of([wrapped]).providerDefinitions[0]);
  });

  it("recomputes the definition of a tool whose definition object changed", () => {
    const tool = echo("a");
    const renamed = tool.withDescription("new words");
    expect(ToolSet.of([renamed]).providerDefinitions[0]?.description).toBe("new words");
    expect(ToolSet.of([tool]).providerDefinitions[0]?.description).toBe("a");
  });

  it("passes the tool's provider metadata as provider options", () => {
    const tool = Tool.create(
      "a",
      "a",
      ToolMetadata.create({ providerMetadata: { anthropic: { cacheControl: { type: "ephemeral" } } } }),
      () => ToolResult.text(""),
    );
    expect(ToolSet.of([tool]).providerDefinitions[0]?.providerOptions).toEqual({
      anthropic: { cacheControl: { type: "ephemeral" } },
    });
  });

  it("removes by name and keeps the order of the rest", () => {
    const tools = ToolSet.of([echo("a"), echo("b"), echo("c")]);
    expect(tools.remove(["b", "missing"]).map((tool) => tool.definition.name)).toEqual(["b"]);
    expect(tools.toolNames).toEqual(["a", "c"]);
    expect(tools.has("b")).toBe(false);
  });

  it("refuses to add a second tool with a taken name", () => {
    const tools = ToolSet.of([echo("a")]);
    expect(tools.add(echo("a"))).toBe(false);
    expect(tools.toolNames).toEqual(["a"]);
  });
});

describe("ToolSet definition changes", () => {
  it("notices a tool whose definition object was replaced and recomputes only that definition", () => {
    const stable = echo("stable");
    const base = echo("changing");
    const changing = {
      definition: base.definition,
      metadata: base.metadata,
      call: base.call.bind(base),
    } as unknown as Tool & { definition: Tool["definition"] };
    const tools = ToolSet.of([stable, changing]);
    const first = tools.providerDefinitions;
    (changing as { definition: Tool["definition"] }).definition =
      base.withDescription("now different").definition;
    const second = tools.providerDefinitions;
    expect(second).not.toBe(first);
    expect(second[0]).toBe(first[0]);
    expect(second[1]?.description).toBe("now different");
  });
});
