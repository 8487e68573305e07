import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Logger } from "./logger.js";
import { Tool } from "./tool.js";
import { NAME_ON_CLASH_KEY, renameOnClash, resolveNameClashes } from "./tool-name-clashes.js";
import { ToolResult } from "./tool-result.js";

const warnings: string[] = [];
let previous: Logger | undefined;
beforeEach(() => {
  previous = Logger.setDefault({
    debug() {},
    info() {},
    warn: (message) => warnings.push(message),
    error() {},
  });
});
afterEach(() => {
  if (previous) Logger.setDefault(previous);
  warnings.length = 0;
});

function appTool(name: string): Tool {
  return Tool.create(name, `app ${name}`, async () => ToolResult.text(name));
}

function thirdParty(name: string, server: string): Tool {
  return appTool(name).withDefinitionMetadata({
    [NAME_ON_CLASH_KEY]: { name: `${server}_${name}`, origin: `MCP server '${server}'` },
  });
}

const names = (tools: readonly Tool[]) => tools.map((tool) => tool.definition.name);

describe("resolveNameClashes", () => {
  it("returns the same list when nothing clashes", () => {
    const tools = [appTool("a"), thirdParty("b", "s")];
    expect(resolveNameClashes(tools)).toBe(tools);
  });

  it("renames the tool that gives way and keeps the application's", () => {
    const app = appTool("search");
    const resolved = resolveNameClashes([thirdParty("search", "s"), app]);
    expect(names(resolved)).toEqual(["s_search", "search"]);
    expect(resolved[1]).toBe(app);
    expect(warnings).toEqual([
      "Tool name clash: another tool is already named 'search', so the tool of MCP server 's' is offered as 's_search'.",
    ]);
  });

  it("renames both of two tools that give way, whatever their order", () => {
    const a = thirdParty("search", "a");
    const b = thirdParty("search", "b");
    expect(names(resolveNameClashes([a, b]))).toEqual(["a_search", "b_search"]);
    expect(names(resolveNameClashes([b, a]))).toEqual(["b_search", "a_search"]);
  });

  it("gives the same renamed copy each time and warns once", () => {
    const tool = thirdParty("x", "s");
    const first = resolveNameClashes([appTool("x"), tool])[1];
    const second = resolveNameClashes([appTool("x"), tool])[1];
    expect(second).toBe(first);
    expect(warnings).toHaveLength(1);
  });

  it("adds _2 when the other name is taken as well", () => {
    expect(names(resolveNameClashes([appTool("x"), appTool("s_x"), thirdParty("x", "s")]))).toEqual([
      "x",
      "s_x",
      "s_x_2",
    ]);
  });

  it("keeps a tool listed twice once, under one name", () => {
    const tool = thirdParty("x", "s");
    expect(names(resolveNameClashes([tool, appTool("x"), tool]))).toEqual(["s_x", "x", "s_x"]);
  });

  it("counts the names inside a facade that may unfold", () => {
    const facade = Object.assign(appTool("box"), { innerTools: [appTool("inner")] });
    expect(names(resolveNameClashes([facade, thirdParty("inner", "s")]))).toEqual(["box", "s_inner"]);
  });

  it("leaves a clash between two application tools to the caller", () => {
    const tools = [appTool("x"), appTool("x")];
    expect(resolveNameClashes(tools)).toBe(tools);
  });
});

describe("renameOnClash", () => {
  it("is undefined for a tool that does not give way", () => {
    expect(renameOnClash(appTool("x"), () => false)).toBeUndefined();
  });
});
