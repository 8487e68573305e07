import { describe, expect, it } from "vitest";
import { PriceTable } from "./price-table.js";

const usage = { inputTokens: 1_000_000, outputTokens: 500_000, totalTokens: 1_500_000 };

describe("PriceTable", () => {
  it("computes cost in US dollars from prices per million tokens", () => {
    const table = PriceTable.of({ m: { inputPerMillion: 2, outputPerMillion: 8 } });
    expect(table.costOf(usage, "m")).toBe(6);
  });

  it("matches the longest prefix for dated model ids", () => {
    expect(PriceTable.DEFAULT.priceOf("gpt-4.1-mini-2025-04-14")).toEqual({
      inputPerMillion: 0.4,
      outputPerMillion: 1.6,
    });
    expect(PriceTable.DEFAULT.priceOf("gpt-4.1-2025-04-14")).toEqual({
      inputPerMillion: 2,
      outputPerMillion: 8,
    });
  });

  it("ignores a provider prefix", () => {
    expect(PriceTable.DEFAULT.priceOf("openai:gpt-4o")).toEqual({
      inputPerMillion: 2.5,
      outputPerMillion: 10,
    });
  });

  it("returns undefined for unknown models", () => {
    expect(PriceTable.EMPTY.costOf(usage, "gpt-4.1")).toBeUndefined();
  });

  it("lets user prices override defaults", () => {
    const table = PriceTable.DEFAULT.with({ "gpt-4.1": { inputPerMillion: 1, outputPerMillion: 1 } });
    expect(table.costOf(usage, "gpt-4.1")).toBe(1.5);
  });
});
