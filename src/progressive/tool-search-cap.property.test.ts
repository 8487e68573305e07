import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputSchema } from "../tool/input-schema.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { ToolSearchIndex } from "./tool-search-index.js";

// The per-server cap is applied in one pass over the matches (`topCapped`), for speed.
// Its meaning is the simple rule `capped` applies to a full ranking (`capPerServer`):
// walk the matches best first, take at most the cap from each server the query does
// not name, and let the skipped ones follow in their order when the result is short.
// Random catalogues of few words (many ties, servers sharing words with queries)
// check that the two agree.

const NOUNS = ["invoice", "payment", "report", "ticket", "alpha"];
const VERBS = ["list", "create", "get"];
/** Server names: `beta` and `billing` also occur in queries; `pay-search` has an action word. */
const SERVERS = [undefined, undefined, "beta", "beta-billing", "gamma", "pay-search", ""];

const toolSpec = fc.record({
  verb: fc.constantFrom(...VERBS),
  noun: fc.constantFrom(...NOUNS),
  description: fc.array(fc.constantFrom(...NOUNS, "billing"), { maxLength: 4 }),
  server: fc.constantFrom(...SERVERS),
});

const plain = (name: string, description: string): Tool =>
  Tool.create(name, description, InputSchema.empty(), () => ToolResult.text("ok"));
const on = (server: string, name: string, description: string): Tool =>
  plain(name, description).withDefinitionMetadata({ mcpServer: server });

function toolOf(spec: typeof toolSpec extends fc.Arbitrary<infer T> ? T : never, index: number): Tool {
  const name = `${spec.verb}_${spec.noun}_${index}`;
  const description = spec.description.join(" ") || "does a thing";
  return spec.server === undefined ? plain(name, description) : on(spec.server, name, description);
}

describe("ToolSearchIndex's per-server cap", () => {
  it("gives what the cap rule gives over the full uncapped ranking", () => {
    fc.assert(
      fc.property(
        fc.array(toolSpec, { minLength: 1, maxLength: 24 }),
        fc.array(fc.constantFrom(...NOUNS, ...VERBS, "beta", "billing", "gamma", "search"), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(0.1, 0.25, 0.4, 0.5, 1),
        (specs, words, limit, share) => {
          const index = ToolSearchIndex.of(specs.map(toolOf), { maxServerShare: share });
          const query = words.join(" ");
          const ranked = index.searchUncapped(query, index.size).map((hit) => hit.position);
          const capped = index.search(query, limit).map((hit) => hit.position);
          expect(capped).toEqual(index.capped(query, ranked, limit));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("which servers a query names", () => {
  const names = (index: ToolSearchIndex, query: string) =>
    index.search(query, 5).map((hit) => hit.tool.definition.name);
  /** `count` tools of `server`, `<prefix>_a`, `<prefix>_b`, …, all described as `description`. */
  const many = (count: number, server: string, prefix: string, description: string) =>
    "abcdef"
      .slice(0, count)
      .split("")
      .map((letter) => on(server, `${prefix}_${letter}`, description));
  const others = [on("atlas", "atlas_place", "a place"), on("atlas", "atlas_spot", "a place")];
  const news = [on("atlas", "atlas_news", "news"), on("atlas", "atlas_headlines", "news")];

  it("a word two servers share names both", () => {
    const index = ToolSearchIndex.of([
      ...many(4, "google-maps", "maps", "place place place place"),
      ...many(4, "google-drive", "drive", "place place"),
      ...others,
    ]);
    expect(names(index, "place")).toEqual(["maps_a", "maps_b", "drive_a", "drive_b", "atlas_place"]);
    expect(names(index, "google place")).toEqual(["maps_a", "maps_b", "maps_c", "maps_d", "drive_a"]);
  });

  it("an action word in a server's name does not name it", () => {
    const index = ToolSearchIndex.of([...many(6, "brave-search", "brave", "news news news"), ...news]);
    expect(names(index, "search news")).toEqual([
      "brave_a",
      "brave_b",
      "atlas_news",
      "atlas_headlines",
      "brave_c",
    ]);
    expect(names(index, "brave news")).toEqual(["brave_a", "brave_b", "brave_c", "brave_d", "brave_e"]);
  });

  it("an empty server name is no server: nothing to cap", () => {
    const index = ToolSearchIndex.of([...many(6, "", "blank", "news news news"), ...news]);
    expect(names(index, "news")).toEqual(["blank_a", "blank_b", "blank_c", "blank_d", "blank_e"]);
  });

  it("a server's match pushed out of the top frees its place for the server's next", () => {
    // Met in catalogue order with rising scores: the server's first match enters, is pushed out, and
    // its better second match must then enter like any other (limit 2, cap 1).
    const index = ToolSearchIndex.of(
      [
        on("shop", "shop_first", "invoice"),
        plain("second", "invoice invoice"),
        plain("third", "invoice invoice invoice"),
        on("shop", "shop_fourth", "invoice invoice invoice invoice"),
      ],
      { maxServerShare: 0.5 },
    );
    expect(index.search("invoice", 2).map((hit) => hit.tool.definition.name)).toEqual([
      "shop_fourth",
      "third",
    ]);
  });
});
