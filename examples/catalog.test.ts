import { describe, expect, it } from "vitest";
import { catalogEntry, EXAMPLE_CATALOG } from "./catalog.js";
import { EXAMPLES } from "./index.js";

describe("EXAMPLE_CATALOG", () => {
  it("lists every built-in example, in the order run knows them, with their summaries", () => {
    expect(EXAMPLE_CATALOG).toEqual(
      EXAMPLES.map(({ name, summary, sampleInput }) => ({ name, summary, sampleInput })),
    );
  });

  it("names the file to fix when an example is missing from it", () => {
    expect(() => catalogEntry("no-such-example")).toThrow(
      "No example named 'no-such-example' in examples/catalog.ts",
    );
  });
});
