import { describe, expect, it } from "vitest";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { Unfolding } from "../tool/unfolding.js";
import { ContextTool, contextToolName } from "./context-tool.js";
import { UnfoldingTool } from "./unfolding-tool.js";

/** What the latest call of `tool` with `input`, outside any loop, unfolded. */
function unfoldedBy(tool: Tool, input: string): Unfolding | undefined {
  return Unfolding.ofCall(tool, { input, context: ToolCallContext.EMPTY, definition: tool.definition });
}

/** Calls `tool` with `input` outside any loop and returns what it unfolded. */
async function unfold(tool: Tool, input: string): Promise<Unfolding | undefined> {
  await tool.call(input);
  return unfoldedBy(tool, input);
}

function leaf(name: string, description: string): Tool {
  return Tool.create(name, description, () => ToolResult.text(`${name} ran`));
}

const NOTES = "Try vector search first for semantic queries. Use text search for exact names.";

async function contextOf(facade: UnfoldingTool): Promise<ContextTool> {
  const context = (await unfold(facade, "{}"))?.tools.at(-1);
  if (!(context instanceof ContextTool)) throw new Error("no context tool");
  return context;
}

const spotify = (notes?: string) =>
  UnfoldingTool.of(
    "spotify_search",
    "Search Spotify for music data",
    [leaf("vector_search", "Semantic search"), leaf("text_search", "Exact search")],
    notes === undefined ? {} : { childToolUsageNotes: notes },
  );

describe("ContextTool", () => {
  it("is named <facade>_context and takes no input", async () => {
    const context = await contextOf(spotify());
    expect(context.definition.name).toBe("spotify_search_context");
    expect(context.definition.inputSchema.jsonSchema).toEqual({ type: "object", properties: {} });
  });

  it("describes the parent's purpose and the children", async () => {
    expect((await contextOf(spotify())).definition.description).toBe(
      "Search Spotify for music data. Available: vector_search, text_search",
    );
  });

  it("adds the usage notes to its description", async () => {
    expect((await contextOf(spotify(NOTES))).definition.description).toBe(
      `Search Spotify for music data. Available: vector_search, text_search. ${NOTES}`,
    );
  });

  it("answers with each child and its description", async () => {
    const result = await (await contextOf(spotify())).call("{}");
    expect(result.content).toBe(
      "Tools for Search Spotify for music data:\n- vector_search: Semantic search\n- text_search: Exact search",
    );
  });

  it("appends the usage notes to its answer", async () => {
    const result = await (await contextOf(spotify(NOTES))).call("{}");
    expect(result.content).toBe(
      `Tools for Search Spotify for music data:\n- vector_search: Semantic search\n- text_search: Exact search\n\nUsage notes: ${NOTES}`,
    );
  });

  it("answers in full once per loop and briefly after that", async () => {
    const context = await contextOf(spotify(NOTES));
    const loop = ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: "loop-1" });
    expect((await context.call("{}", loop)).content).toMatch(/^Tools for /);
    expect((await context.call("{}", loop)).content).toBe(
      "The usage notes for 'spotify_search' were returned earlier in this turn; call one of: vector_search, text_search.",
    );
    const otherLoop = ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: "loop-2" });
    expect((await context.call("{}", otherLoop)).content).toMatch(/^Tools for /);
  });

  it("answers in full every time outside a loop", async () => {
    const context = await contextOf(spotify());
    expect((await context.call("{}")).content).toMatch(/^Tools for /);
    expect((await context.call("{}")).content).toMatch(/^Tools for /);
  });
});

describe("contextToolName", () => {
  it("appends _context", () => {
    expect(contextToolName("database")).toBe("database_context");
  });

  it("shortens the facade part so the name stays within 64 characters", () => {
    const name = contextToolName("x".repeat(64));
    expect(name).toHaveLength(64);
    expect(name.endsWith("_context")).toBe(true);
  });
});
