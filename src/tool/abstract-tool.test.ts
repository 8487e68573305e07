import { describe, expect, it } from "vitest";
import { DelegatingTool } from "./abstract-tool.js";
import { InputSchema } from "./input-schema.js";
import { Param } from "./param.js";
import { Tool } from "./tool.js";
import { ToolCallContext } from "./tool-call-context.js";
import { ToolMetadata } from "./tool-metadata.js";
import { ToolResult } from "./tool-result.js";

function calculator(): Tool {
  return Tool.of(
    "calculator",
    "Performs calculations",
    InputSchema.of(Param.integer("x", "Number")),
    ToolMetadata.create({ returnDirect: true }),
    (input, context) => ToolResult.text(`42 ${input} ${context.get("k") ?? ""}`.trim()),
  ).withDefinitionMetadata({ group: "math" });
}

describe("AbstractTool.withName", () => {
  it("renames and keeps description, schema, definition metadata and tool metadata", async () => {
    const original = calculator();
    const renamed = original.withName("calc");
    expect(renamed.definition.name).toBe("calc");
    expect(renamed.definition.description).toBe("Performs calculations");
    expect(renamed.definition.inputSchema).toBe(original.definition.inputSchema);
    expect(renamed.definition.metadata).toEqual({ group: "math" });
    expect(renamed.metadata.returnDirect).toBe(true);
    expect(renamed).toBeInstanceOf(DelegatingTool);
    expect(original.definition.name).toBe("calculator");
  });

  it("rejects an invalid name, naming it", () => {
    expect(() => calculator().withName("no spaces allowed")).toThrow(/Invalid tool name 'no spaces allowed'/);
  });
});

describe("AbstractTool.withDescription", () => {
  it("replaces the description and keeps everything else", async () => {
    const original = calculator();
    const custom = original.withDescription("Specialized math tool");
    expect(custom.definition.description).toBe("Specialized math tool");
    expect(original.definition.description).toBe("Performs calculations");
    expect(custom.definition.name).toBe("calculator");
    expect(custom.definition.inputSchema).toBe(original.definition.inputSchema);
    expect(custom.metadata.returnDirect).toBe(true);
    expect(custom).toBeInstanceOf(DelegatingTool);
    expect((custom as DelegatingTool).delegate).toBe(original);
    expect((await custom.call("{}")).content).toBe("42 {}");
  });
});

describe("AbstractTool.withNote", () => {
  it("adds no second period after a description that ends with one", () => {
    const tool = Tool.create("t", "Searches the catalogue.", () => ToolResult.text(""));
    expect(
      tool.withNote("Prefer exact titles").withNote("Max 10 results.").withNote("Then stop").definition
        .description,
    ).toBe("Searches the catalogue. Prefer exact titles. Max 10 results. Then stop");
    expect(
      Tool.create("q", "Really?  ", () => ToolResult.text("")).withNote("Yes").definition.description,
    ).toBe("Really? Yes");
  });

  it("appends '. <note>' to the description", () => {
    expect(calculator().withNote("Use this when querying large datasets").definition.description).toBe(
      "Performs calculations. Use this when querying large datasets",
    );
  });

  it("accumulates notes and keeps the name and behaviour", async () => {
    const base = Tool.create("base", "Base", () => ToolResult.text("same"));
    const noted = base.withNote("Note 1").withNote("Note 2");
    expect(noted.definition.description).toBe("Base. Note 1. Note 2");
    expect(noted.definition.name).toBe("base");
    expect(await noted.call("{}")).toEqual(ToolResult.text("same"));
  });

  it("applies to a replaced description", () => {
    expect(calculator().withDescription("New base").withNote("Additional info").definition.description).toBe(
      "New base. Additional info",
    );
  });

  it("keeps returnDirect, definition metadata and passes the context through", async () => {
    const noted = calculator().withNote("Optimized for financial calculations");
    expect(noted.metadata.returnDirect).toBe(true);
    expect(noted.definition.metadata).toEqual({ group: "math" });
    expect((await noted.call("{}", ToolCallContext.of({ k: "v" }))).content).toBe("42 {} v");
  });
});

describe("DelegatingTool", () => {
  it("forwards definition, metadata, input and context to its delegate", async () => {
    const original = calculator();
    const wrapper = new DelegatingTool(original);
    expect(wrapper.definition).toBe(original.definition);
    expect(wrapper.metadata).toBe(original.metadata);
    expect((await wrapper.call("in", ToolCallContext.of({ k: "ctx" }))).content).toBe("42 in ctx");
  });

  it("unwraps to the first tool in the chain that matches", () => {
    const original = calculator();
    const wrapped = new DelegatingTool(original.withNote("n"));
    const isOriginal = (tool: Tool): tool is Tool => tool === original;
    expect(DelegatingTool.unwrap(wrapped, isOriginal)).toBe(original);
    expect(
      DelegatingTool.unwrap(wrapped, (tool): tool is Tool => tool.definition.name === "nope"),
    ).toBeUndefined();
  });
});
