import { describe, expect, it } from "vitest";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { LlmReference } from "./llm-reference.js";

function tool(name: string): Tool {
  return Tool.create(name, `The ${name} tool`, async () => ToolResult.text(`${name} ran`));
}

describe("LlmReference", () => {
  it("makes a reference from name, description, tools and notes", async () => {
    const lookup = tool("lookup");
    const reference = LlmReference.of("Docs", "The product docs", [lookup], "Search before answering");
    expect(reference.name).toBe("Docs");
    expect(reference.description).toBe("The product docs");
    expect(reference.notes()).toBe("Search before answering");
    expect(await reference.tools()).toEqual([lookup]);
  });

  it("has empty notes unless given", () => {
    expect(LlmReference.of("Docs", "d", []).notes()).toBe("");
  });

  it("normalises its name into a tool prefix", () => {
    expect(LlmReference.toolPrefix({ name: "My API Reference" })).toBe("my_api_reference");
    expect(LlmReference.toolPrefix({ name: "Ünïcode & co." })).toBe("n_code_co");
  });

  it("contributes Reference, Description, Tool prefix and Notes lines after a leading newline", () => {
    const reference = LlmReference.of("My API Reference", "How the API works", [], "Use the search tool");
    expect(LlmReference.contribution(reference)).toBe(
      "\nReference: My API Reference\nDescription: How the API works\nTool prefix: my_api_reference\nNotes: Use the search tool",
    );
  });

  it("offers its tools as <prefix>_<name>, calling the original tool", async () => {
    const reference = LlmReference.of("My API Reference", "d", [tool("search"), tool("get")]);
    const tools = await LlmReference.prefixedTools(reference);
    expect(tools.map((t) => t.definition.name)).toEqual(["my_api_reference_search", "my_api_reference_get"]);
    expect((await tools[0]?.call("{}"))?.content).toBe("search ran");
  });

  it("shortens the prefix so every prefixed name stays within 64 characters", async () => {
    const longName = "A".repeat(80);
    const reference = LlmReference.of(longName, "d", [tool("search")]);
    const [prefixed] = await LlmReference.prefixedTools(reference);
    expect(prefixed?.definition.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(prefixed?.definition.name.endsWith("_search")).toBe(true);
    expect(prefixed?.definition.name).toHaveLength(64);
  });

  it("recognises references and rejects look-alikes", () => {
    expect(LlmReference.isLlmReference(LlmReference.of("a", "b", []))).toBe(true);
    expect(LlmReference.isLlmReference({ name: "a", description: "b" })).toBe(false);
  });
});

describe("LlmReference.of with a tool object", () => {
  class Api {
    @llmTool({ description: "Gets a page" })
    getPage(): string {
      return "page";
    }
  }

  it("takes the object's @llmTool methods as its tools, prefixed", async () => {
    const reference = LlmReference.of("Api", "The API", new Api(), "notes");
    expect((await reference.tools()).map((t) => t.definition.name)).toEqual(["getPage"]);
    expect((await LlmReference.prefixedTools(reference)).map((t) => t.definition.name)).toEqual([
      "api_getPage",
    ]);
  });
});
