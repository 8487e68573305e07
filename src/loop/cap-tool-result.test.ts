import { describe, expect, it } from "vitest";
import { ToolResult } from "../tool/tool-result.js";
import { capToolResult, checkMaxToolResultChars, cutNote } from "./cap-tool-result.js";

describe("capToolResult", () => {
  it("keeps the first characters and says how much was cut and how to get more", () => {
    const capped = capToolResult(ToolResult.text("abcdefghij"), 4, "letters");
    expect(capped.kind).toBe("text");
    expect(capped.content).toBe(`abcd${cutNote("letters", 4, 10)}`);
    expect(capped.content).toContain("showing the first 4 of 10 characters (6 cut)");
    expect(capped.content).toContain("call the tool again with narrower arguments");
  });

  it("keeps an artifact whole and an error an error", () => {
    const artifact = { rows: [1, 2, 3] };
    const capped = capToolResult(ToolResult.withArtifact("0123456789", artifact), 3, "rows");
    expect(capped.kind === "artifact" && capped.artifact).toBe(artifact);
    const cause = new Error("huge");
    const error = capToolResult(ToolResult.error("e".repeat(50), cause), 5, "failing");
    expect(error.kind === "error" && error.cause).toBe(cause);
    expect(error.content.startsWith("eeeee\n\n[Output of tool 'failing' cut")).toBe(true);
  });

  it("never splits a surrogate pair", () => {
    const capped = capToolResult(ToolResult.text("ab😀cd"), 3, "emoji");
    expect(capped.content.startsWith("ab\n\n")).toBe(true);
    expect(capped.content).toContain("showing the first 2 of 6 characters");
  });
});

describe("checkMaxToolResultChars", () => {
  it("accepts positive integers and Infinity, refuses the rest", () => {
    expect(() => checkMaxToolResultChars("x", 1)).not.toThrow();
    expect(() => checkMaxToolResultChars("x", Number.POSITIVE_INFINITY)).not.toThrow();
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => checkMaxToolResultChars("x", bad)).toThrow(
        /maxToolResultChars must be a positive integer/,
      );
    }
  });
});
