import { addUsage, ZERO_USAGE } from "../loop/loop-usage.js";
import type { LlmUsage, ToolLoopEvent } from "../loop/tool-loop.js";
import { PriceTable } from "./price-table.js";

/** One recorded LLM call. */
export interface UsageRecord {
  readonly provider: string;
  readonly modelId: string;
  readonly usage: LlmUsage;
  /** Cost in US dollars; `undefined` when the model's price is unknown. */
  readonly costUsd: number | undefined;
}

/**
 * Records the usage and cost of LLM calls (for a process, a session, a test):
 * feed it `llm-call-end` events with {@link UsageLedger.listener} or call
 * {@link UsageLedger.record}.
 */
export class UsageLedger {
  private readonly entries: UsageRecord[] = [];
  private totalUsage: LlmUsage = ZERO_USAGE;
  private totalCost = 0;
  private unpriced = 0;

  constructor(private readonly prices: PriceTable = PriceTable.DEFAULT) {}

  /** Records one call and returns its record. */
  record(call: {
    readonly provider: string;
    readonly modelId: string;
    readonly usage: LlmUsage;
  }): UsageRecord {
    const costUsd = this.prices.costOf(call.usage, call.modelId);
    const entry = { provider: call.provider, modelId: call.modelId, usage: call.usage, costUsd };
    this.entries.push(entry);
    this.totalUsage = addUsage(this.totalUsage, call.usage);
    if (costUsd === undefined) this.unpriced += 1;
    else this.totalCost += costUsd;
    return entry;
  }

  /** An `onEvent` listener for the tool loop that records every `llm-call-end`. */
  listener(): (event: ToolLoopEvent) => void {
    return (event) => {
      if (event.type === "llm-call-end") this.record(event);
    };
  }

  /** Every call recorded, in order. */
  get calls(): readonly UsageRecord[] {
    return this.entries;
  }

  /** Tokens over every call. */
  get usage(): LlmUsage {
    return this.totalUsage;
  }

  /** Cost in US dollars over the calls whose price is known. */
  get costUsd(): number {
    return this.totalCost;
  }

  /** How many calls had no known price (their cost is not in {@link UsageLedger.costUsd}). */
  get unpricedCalls(): number {
    return this.unpriced;
  }
}
