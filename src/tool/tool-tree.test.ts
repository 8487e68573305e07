import { describe, expect, it } from "vitest";
import { AbstractTool, DelegatingTool } from "./abstract-tool.js";
import { InputSchema } from "./input-schema.js";
import { Tool } from "./tool.js";
import { toolDefinition } from "./tool-definition.js";
import { ToolMetadata } from "./tool-metadata.js";
import { ToolResult } from "./tool-result.js";
import type { NestedTool } from "./unfolding.js";

const leaf = (name: string) => Tool.create(name, name, () => ToolResult.text(name));

class Nested extends AbstractTool implements NestedTool {
  readonly definition;
  readonly metadata = ToolMetadata.DEFAULT;
  constructor(
    name: string,
    readonly innerTools: readonly Tool[],
  ) {
    super();
    this.definition = toolDefinition(name, name, InputSchema.empty());
  }
  async call(): Promise<ToolResult> {
    return ToolResult.text("");
  }
}

describe("formatToolTree", () => {
  it("says the root has no tools for an empty list", () => {
    expect(Tool.formatToolTree("MyAgent", [])).toBe("MyAgent has no tools");
  });

  it("draws nested tools with their inner tool count", () => {
    const tools = [
      leaf("get_weather"),
      new Nested("database", [leaf("query"), leaf("insert")]),
      leaf("send_email"),
    ];
    expect(Tool.formatToolTree("MyAgent", tools)).toBe(
      [
        "MyAgent",
        "├── get_weather",
        "├── database (2 inner tools)",
        "│   ├── query",
        "│   └── insert",
        "└── send_email",
      ].join("\n"),
    );
  });

  it("indents the children of a last nested tool with spaces", () => {
    const tools = [leaf("a"), new Nested("group", [leaf("b"), new Nested("deeper", [leaf("c")])])];
    expect(Tool.formatToolTree("Root", tools)).toBe(
      [
        "Root",
        "├── a",
        "└── group (2 inner tools)",
        "    ├── b",
        "    └── deeper (1 inner tools)",
        "        └── c",
      ].join("\n"),
    );
  });

  it("sees through decorators to a nested tool", () => {
    const wrapped = new DelegatingTool(new Nested("facade", [leaf("x")])).withNote("note");
    expect(Tool.formatToolTree("R", [wrapped])).toBe("R\n└── facade (1 inner tools)\n    └── x");
  });
});
