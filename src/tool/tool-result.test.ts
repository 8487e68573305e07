import { describe, expect, it } from "vitest";
import { ToolResult } from "./tool-result.js";

describe("ToolResult", () => {
  it("makes text results", () => {
    expect(ToolResult.text("The answer is 42")).toEqual({ kind: "text", content: "The answer is 42" });
  });

  it("makes artifact results whose artifact the LLM never sees", () => {
    const bytes = new Uint8Array([1, 2]);
    const result = ToolResult.withArtifact("Generated report", bytes);
    expect(result).toMatchObject({ kind: "artifact", content: "Generated report" });
    expect(result.artifact).toBe(bytes);
  });

  it("makes error results with the message as content and an optional cause", () => {
    const cause = new Error("io");
    expect(ToolResult.error("Failed to process request", cause)).toMatchObject({
      kind: "error",
      content: "Failed to process request",
      cause,
    });
    expect("cause" in ToolResult.error("no cause")).toBe(false);
  });

  it("recognises its own results and not look-alikes", () => {
    expect(ToolResult.isToolResult(ToolResult.text("x"))).toBe(true);
    expect(ToolResult.isToolResult({ kind: "text", content: "x" })).toBe(false);
    expect(JSON.stringify(ToolResult.text("x"))).toBe('{"kind":"text","content":"x"}');
  });
});
