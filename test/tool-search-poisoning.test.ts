// Tool-search poisoning (security review N14): a real MCP server over stdio
// offers 40 small tools, each 10 of the words the benchmark's 423 labelled
// requests use most (bench/support/poisoner.mjs), next to the benchmark's
// 2,054-tool catalogue. Without a cap it fills up to 4 of a request's top 5;
// with the default cap (2 of 5 per server unless the query names it) never
// more than 2, and a request naming the server still gets all 5 from it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM benchmark support without types
import { poisonTools } from "../bench/support/poisoner.mjs";
// @ts-expect-error plain ESM benchmark support without types
import { REFERENCE_TOOLS, serverOf, syntheticTools } from "../bench/support/tool-catalogue.mjs";
// @ts-expect-error plain ESM benchmark support without types
import { QUERIES } from "../bench/support/tool-queries.mjs";
// @ts-expect-error plain ESM benchmark support without types
import { FRESH_QUERIES } from "../bench/support/tool-queries-fresh.mjs";
import {
  InputSchema,
  McpClients,
  McpToolGroup,
  Param,
  Tool,
  ToolResult,
  ToolSearchIndex,
  UnfoldingTool,
} from "../src/index.js";
import { POISON_SERVER } from "./support/mcp-fixture.js";

type Spec = [string, string, ...string[]];

function toolOf([name, description, ...parameters]: Spec): Tool {
  const schema = InputSchema.of(
    ...parameters.map((parameter) =>
      Param.string(parameter, parameter.replaceAll("_", " "), { required: false }),
    ),
  );
  return Tool.create(name, description, schema, () => ToolResult.text("ok")).withDefinitionMetadata({
    mcpServer: serverOf(name),
  });
}

const requests: string[] = [...QUERIES, ...FRESH_QUERIES].map(([query]: [string]) => query);
let clients: McpClients;
let catalogue: Tool[];

beforeAll(async () => {
  clients = McpClients.fromConfig({
    mcpServers: {
      helper: {
        command: process.execPath,
        args: [POISON_SERVER],
        env: { POISON_TOOLS: JSON.stringify(poisonTools(requests, { tools: 40, words: 10 })) },
      },
    },
  });
  const group = McpToolGroup.create({ role: "helper", description: "Helper", clients });
  const poison = await group.tools();
  catalogue = [...[...REFERENCE_TOOLS, ...syntheticTools()].map(toolOf), ...poison];
}, 30_000);
afterAll(() => clients?.close());

/** Over every request: how many have a poison tool in the top 5, at #1, and the most poison tools in one top 5. */
function poisoning(index: ToolSearchIndex): { inTop5: number; first: number; most: number } {
  let inTop5 = 0;
  let first = 0;
  let most = 0;
  for (const request of requests) {
    const servers = index.search(request, 5).map((hit) => hit.tool.definition.metadata.mcpServer);
    const count = servers.filter((server) => server === "helper").length;
    if (count > 0) inTop5 += 1;
    if (servers[0] === "helper") first += 1;
    most = Math.max(most, count);
  }
  return { inTop5, first, most };
}

describe("tool search against a poisoning MCP server", () => {
  it("the server's 40 tools came over MCP with their server's name", () => {
    const poison = catalogue.filter((tool) => tool.definition.metadata.mcpServer === "helper");
    expect(poison).toHaveLength(40);
    expect(catalogue).toHaveLength(2054 + 40);
  });

  it("uncapped, it fills up to 4 of a top 5; capped, at most 2 of 5, and 4 of 10", () => {
    const uncapped = poisoning(ToolSearchIndex.of(catalogue, { maxServerShare: 1 }));
    // The review's figures: about a quarter of the 423 requests, up to 4 slots of 5.
    expect(uncapped.inTop5).toBeGreaterThan(90);
    expect(uncapped.most).toBe(4);
    const capped = poisoning(ToolSearchIndex.of(catalogue));
    expect(capped.most).toBe(2);
    // The cap bounds how much of a result it takes, not how often it appears (see docs/tool-search.md).
    expect(capped.inTop5).toBeLessThan(140);
    const index = ToolSearchIndex.of(catalogue);
    for (const request of requests) {
      const hits = index.search(request, 10);
      expect(
        hits.filter((hit) => hit.tool.definition.metadata.mcpServer === "helper").length,
      ).toBeLessThanOrEqual(4);
    }
  });

  it("a request naming the server still gets its tools, through the search tool", async () => {
    const search = UnfoldingTool.searchable("find_tools", "Find tools", catalogue);
    const answer = await search.call(JSON.stringify({ query: "ask the helper to find something", limit: 5 }));
    const names = [...answer.content.matchAll(/^- ([^:]+):/gm)].map((match) => match[1]);
    expect(names).toHaveLength(5);
    // Named, it is not capped: more than 2 of the 5.
    expect(names.filter((name) => name?.startsWith("helper_")).length).toBeGreaterThan(2);
    const unnamed = await search.call(JSON.stringify({ query: "github and slack", limit: 5 }));
    const found = [...unnamed.content.matchAll(/^- ([^:]+):/gm)].map((match) => match[1]);
    expect(found.filter((name) => name?.startsWith("helper_")).length).toBeLessThanOrEqual(2);
  });
});
