import { describe, expect, it } from "vitest";
import { z } from "zod";
import { unknownToolMessage } from "./loop/unknown-tool.js";
import { mcpHttpGuard } from "./mcp/mcp-http-guard.js";
import { plainVerbs, questionTerms } from "./progressive/action-words.js";
import { queryLiterals } from "./progressive/query-literals.js";
import { acronymTerms, searchTerms, surfaceTerms } from "./progressive/search-terms.js";
import { MAX_QUERY_CHARS, ToolSearchIndex } from "./progressive/tool-search-index.js";
import { parseOutput } from "./prompt/structured-output.js";
import { InputSchema } from "./tool/input-schema.js";
import { Param } from "./tool/param.js";
import { redactSecrets } from "./tool/redact-secrets.js";
import { terminalSafe } from "./tool/terminal-safe.js";
import { Tool } from "./tool/tool.js";
import { normalizeToolName } from "./tool/tool-definition.js";
import { ToolResult } from "./tool/tool-result.js";
import { TypeToken } from "./tool/type-token.js";

/**
 * Every parser that reads text a model, a tool or an MCP peer sends runs in
 * linear time: 100 KB of the shapes that make a backtracking regex quadratic
 * (long runs of one character followed by one that fails the match). Before
 * the fixes, these took 1.7 to 16 s each on this machine; the budget is far
 * below that and generous for a shared, loaded machine.
 */
const SIZE = 100_000;
const BUDGET_MS = 500;

/** The adversarial shapes: runs of punctuation, spaces, capitals, fences, underscores, each ending in a character that breaks the match. */
const SHAPES: Record<string, string> = {
  closingPunctuation: `${")".repeat(SIZE)}x`,
  openingPunctuation: `${"(".repeat(SIZE)}x`,
  mixedPunctuation: `${'("'.repeat(SIZE / 2)}x${'")'.repeat(SIZE / 2)}x`,
  spaces: `a${" ".repeat(SIZE)}!`,
  newlines: `\`\`\`${"\n".repeat(SIZE)}a`,
  fenceSpaces: `\`\`\`${" ".repeat(SIZE)}a`,
  capitals: "A".repeat(SIZE),
  camel: "aA".repeat(SIZE / 2),
  underscores: `a${"_".repeat(SIZE)}a`,
  dots: `${"a.".repeat(SIZE / 2)}!`,
  slashes: `${"a/".repeat(SIZE / 2)}!`,
  at: `a@${"a.".repeat(SIZE / 2)}1`,
  urls: "a://".repeat(SIZE / 4),
  bearer: `Bearer${" ".repeat(SIZE)}\n`,
  phrasal: "set ".repeat(SIZE / 4),
  words: "list ".repeat(SIZE / 5),
  apostrophes: `${"a'".repeat(SIZE / 2)}'`,
};

function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

function catalogue(): ToolSearchIndex {
  const tools: Tool[] = [];
  for (let index = 0; index < 500; index++) {
    const schema = InputSchema.of(Param.string(`field${index}`, `the value of field ${index}`));
    tools.push(
      Tool.create(
        `tool_${index}_list_items`,
        `Lists the items of kind ${index} and their owners.`,
        schema,
        () => ToolResult.text("ok"),
      ),
    );
  }
  return ToolSearchIndex.of(tools);
}

describe("parsers of untrusted text", () => {
  const parsers: Record<string, (text: string) => unknown> = {
    searchTerms,
    surfaceTerms,
    acronymTerms,
    queryLiterals,
    questionTerms,
    plainVerbs,
    normalizeToolName,
    redactSecrets,
    terminalSafe,
    parseOutput: (text) => parseOutput(text, TypeToken.of(z.object({ a: z.number() }))),
    unknownToolMessage: (text) => unknownToolMessage(text, ["list_items", "create_item", "DeleteItemNow"]),
    bearerGuard: (text) =>
      mcpHttpGuard({ port: 1, listenHost: "127.0.0.1", token: "secret" })({
        host: "127.0.0.1:1",
        authorization: text,
      }),
  };

  for (const [name, parse] of Object.entries(parsers)) {
    it(`${name} reads 100 KB adversarial inputs in under ${BUDGET_MS} ms each`, () => {
      const times: Record<string, number> = {};
      for (const [shape, text] of Object.entries(SHAPES)) times[shape] = Math.round(timed(() => parse(text)));
      const slow = Object.entries(times).filter(([, ms]) => ms >= BUDGET_MS);
      expect(slow, `ms per 100 KB input: ${JSON.stringify(times)}`).toEqual([]);
    });
  }

  it(`tool search over 500 tools answers every 100 KB adversarial query in under ${BUDGET_MS} ms`, () => {
    const index = catalogue();
    const times: Record<string, number> = {};
    for (const [shape, text] of Object.entries(SHAPES)) {
      times[shape] = Math.round(timed(() => index.search(text, 5)));
    }
    const slow = Object.entries(times).filter(([, ms]) => ms >= BUDGET_MS);
    expect(slow, `ms per query: ${JSON.stringify(times)}`).toEqual([]);
  });

  it(`tool search reads only the first ${MAX_QUERY_CHARS} characters of a query`, () => {
    const index = catalogue();
    const padding = "x ".repeat(MAX_QUERY_CHARS / 2);
    expect(index.search(`${padding}items`, 5)).toEqual([]);
    expect(index.search(`items ${padding}`, 5)).toHaveLength(5);
  });

  it("still strips a word's brackets, quotes and trailing punctuation", () => {
    expect(queryLiterals('open ("notes.md"), then (https://example.com/a).').values).toBe(
      "notes.md https://example.com/a",
    );
    expect(normalizeToolName("__My API__Reference__")).toBe("my_api__reference");
    expect(normalizeToolName("___")).toBe("tool");
    expect(normalizeToolName(`${"a".repeat(70)}_`)).toBe("a".repeat(64));
  });

  it("still reads a fenced answer", () => {
    const type = TypeToken.of(z.object({ a: z.number() }));
    expect(parseOutput('```json\n{"a": 1}\n```', type)).toEqual({ ok: true, value: { a: 1 } });
    expect(parseOutput('```{"a": 2}```', type)).toEqual({ ok: true, value: { a: 2 } });
    expect(parseOutput('Here: ```json\n{"a": 3}\n``` done', type)).toEqual({ ok: true, value: { a: 3 } });
  });

  it("still reads a bearer token, and refuses a malformed header", () => {
    const guard = mcpHttpGuard({ port: 1, listenHost: "127.0.0.1", token: "secret" });
    expect(guard({ host: "127.0.0.1:1", authorization: "Bearer secret" })).toBeUndefined();
    expect(guard({ host: "127.0.0.1:1", authorization: "bearer   secret " })).toBeUndefined();
    expect(guard({ host: "127.0.0.1:1", authorization: "Bearersecret" })?.status).toBe(401);
    expect(guard({ host: "127.0.0.1:1", authorization: "Bearer " })?.status).toBe(401);
  });
});
