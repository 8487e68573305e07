import { describe, expect, it } from "vitest";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { PriceTable } from "./price-table.js";
import { UsageLedger } from "./usage-ledger.js";

describe("UsageLedger", () => {
  it("records every LLM call of a loop with its cost", async () => {
    const ledger = new UsageLedger(
      PriceTable.of({ scripted: { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } }),
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("t", {}, { usage: { inputTokens: 3, outputTokens: 1 } }),
      ScriptedModel.text("ok", { usage: { inputTokens: 5, outputTokens: 2 } }),
    );
    await runToolLoop({
      model,
      prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      tools: [Tool.create("t", "t", () => ToolResult.text("r"))],
      onEvent: ledger.listener(),
    });
    expect(ledger.calls).toHaveLength(2);
    expect(ledger.usage).toEqual({ inputTokens: 8, outputTokens: 3, totalTokens: 11 });
    expect(ledger.costUsd).toBe(14);
  });

  it("counts calls whose price is unknown instead of guessing", () => {
    const ledger = new UsageLedger(PriceTable.EMPTY);
    const record = ledger.record({
      provider: "p",
      modelId: "m",
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    });
    expect(record.costUsd).toBeUndefined();
    expect(ledger.unpricedCalls).toBe(1);
    expect(ledger.costUsd).toBe(0);
  });
});
