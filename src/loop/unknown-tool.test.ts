import { describe, expect, it } from "vitest";
import { ToolNotFoundError } from "../errors/tool-not-found-error.js";
import { closestToolNames, UnknownToolCounter, unknownToolMessage } from "./unknown-tool.js";

describe("closestToolNames", () => {
  it("matches names equal after lowercasing and dropping separators", () => {
    expect(closestToolNames("VECTOR_SEARCH", ["vectorSearch", "other"])).toEqual(["vectorSearch"]);
  });

  it("suggests the single best token match for a prefixed name", () => {
    expect(closestToolNames("ragbot_vectorSearch", ["vectorSearch", "vectorQuery", "unrelated"])).toEqual([
      "vectorSearch",
    ]);
    expect(closestToolNames("my_vectorSearch_v2", ["vectorSearch", "unrelated"])).toEqual(["vectorSearch"]);
  });

  it("suggests several close matches and not unrelated names", () => {
    const matches = closestToolNames("ragbot_vector_tool", ["vectorSearch", "vectorQuery", "unrelated"]);
    expect(matches).toEqual(expect.arrayContaining(["vectorSearch", "vectorQuery"]));
    expect(matches).not.toContain("unrelated");
  });

  it("honours a lower similarity threshold", () => {
    const matches = closestToolNames("vector_lookup", ["vectorIndex", "dataQuery"], {
      minTokenSimilarity: 0.1,
    });
    expect(matches).toEqual(["vectorIndex"]);
  });

  it("suggests nothing for empty or very short names", () => {
    expect(closestToolNames("", ["vectorSearch"])).toEqual([]);
    expect(closestToolNames("v", ["vectorSearch"])).toEqual([]);
  });
});

describe("unknownToolMessage", () => {
  it("lists possible matches when several are close", () => {
    expect(unknownToolMessage("ragbot_vector_tool", ["vectorSearch", "vectorQuery"])).toBe(
      "Tool 'ragbot_vector_tool' does not exist. Possible matches: ['vectorSearch', 'vectorQuery']. Available tools: [vectorSearch, vectorQuery]. Use the exact tool name from this list. Do not combine or prefix tool names — tool names found in source code or search results are not callable.",
    );
  });

  it("has no suggestion when nothing is close", () => {
    expect(unknownToolMessage("weather", ["add"])).toBe(
      "Tool 'weather' does not exist. Available tools: [add]. Use the exact tool name from this list. Do not combine or prefix tool names — tool names found in source code or search results are not callable.",
    );
  });
});

describe("UnknownToolCounter", () => {
  it("answers three consecutive misses and throws at the fourth", () => {
    const counter = new UnknownToolCounter();
    for (let miss = 0; miss < 3; miss += 1)
      expect(counter.missed("x", ["a"])).toContain("Tool 'x' does not exist.");
    expect(() => counter.missed("x", ["a"])).toThrow(ToolNotFoundError);
  });

  it("starts over after a found tool", () => {
    const counter = new UnknownToolCounter(1);
    counter.missed("x", []);
    counter.found();
    expect(() => counter.missed("x", [])).not.toThrow();
  });
});
