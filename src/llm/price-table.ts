import type { LlmUsage } from "../loop/tool-loop.js";

/** The price of a model in US dollars per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

/**
 * Prices per model, for cost accounting. A model id matches its exact entry,
 * else the longest entry it starts with (`gpt-4.1-2025-04-14` → `gpt-4.1`);
 * a `provider:` prefix on the id is ignored.
 */
export class PriceTable {
  /** Published list prices of common models (USD per million tokens, mid 2025); override with your own. */
  static readonly DEFAULT = new PriceTable({
    "gpt-4.1": { inputPerMillion: 2, outputPerMillion: 8 },
    "gpt-4.1-mini": { inputPerMillion: 0.4, outputPerMillion: 1.6 },
    "gpt-4.1-nano": { inputPerMillion: 0.1, outputPerMillion: 0.4 },
    "gpt-4o": { inputPerMillion: 2.5, outputPerMillion: 10 },
    "gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 },
    "claude-sonnet-4": { inputPerMillion: 3, outputPerMillion: 15 },
    "claude-opus-4": { inputPerMillion: 15, outputPerMillion: 75 },
    "claude-3-5-haiku": { inputPerMillion: 0.8, outputPerMillion: 4 },
    "text-embedding-3-small": { inputPerMillion: 0.02, outputPerMillion: 0 },
    "text-embedding-3-large": { inputPerMillion: 0.13, outputPerMillion: 0 },
    "text-embedding-ada-002": { inputPerMillion: 0.1, outputPerMillion: 0 },
  });

  /** No prices: every cost is unknown. */
  static readonly EMPTY = new PriceTable({});

  private readonly prices: ReadonlyMap<string, ModelPrice>;

  constructor(prices: Readonly<Record<string, ModelPrice>>) {
    this.prices = new Map(Object.entries(prices));
  }

  /** A table of `prices`. */
  static of(prices: Readonly<Record<string, ModelPrice>>): PriceTable {
    return new PriceTable(prices);
  }

  /** A copy with `prices` added (they win over existing entries). */
  with(prices: Readonly<Record<string, ModelPrice>>): PriceTable {
    return new PriceTable({ ...Object.fromEntries(this.prices), ...prices });
  }

  /** `priceOf` answers by model id (null: no price); the table never changes, and it is asked at every LLM call. */
  private readonly resolved = new Map<string, ModelPrice | null>();

  /** The price of `modelId`, if known. */
  priceOf(modelId: string): ModelPrice | undefined {
    let price = this.resolved.get(modelId);
    if (price === undefined) {
      price = this.lookUp(modelId) ?? null;
      this.resolved.set(modelId, price);
    }
    return price ?? undefined;
  }

  private lookUp(modelId: string): ModelPrice | undefined {
    const id = modelId.includes(":") ? modelId.slice(modelId.indexOf(":") + 1) : modelId;
    const exact = this.prices.get(id);
    if (exact) return exact;
    let best: [string, ModelPrice] | undefined;
    for (const entry of this.prices) {
      if (id.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
    }
    return best?.[1];
  }

  /** The cost in US dollars of `usage` on `modelId`, or `undefined` when its price is unknown. */
  costOf(usage: LlmUsage, modelId: string): number | undefined {
    const price = this.priceOf(modelId);
    if (!price) return undefined;
    return (
      (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1_000_000
    );
  }
}
