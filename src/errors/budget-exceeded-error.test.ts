import { describe, expect, it } from "vitest";
import { BudgetExceededError } from "./budget-exceeded-error.js";
import { EmbabelError } from "./embabel-error.js";

describe("BudgetExceededError", () => {
  it("uses the reference's message for each budget", () => {
    expect(new BudgetExceededError("actions", 50, 50).message).toBe("Max actions of 50 reached");
    expect(new BudgetExceededError("tokens", 1_000_000, 1_000_010).message).toBe(
      "Max tokens of 1000000 reached",
    );
    expect(new BudgetExceededError("cost", 2, 2.00016).message).toBe(
      "Exceeded budget of $2.0000: cost=$2.0002",
    );
  });

  it("carries the kind, limit and usage, and is recognised by name", () => {
    const error = new BudgetExceededError("cost", 0.5, 0.75);
    expect(error).toMatchObject({ name: "BudgetExceededError", kind: "cost", limit: 0.5, used: 0.75 });
    expect(BudgetExceededError.isInstance(error)).toBe(true);
    expect(EmbabelError.isInstance(error)).toBe(true);
    expect(BudgetExceededError.isInstance(new Error("Max actions of 1 reached"))).toBe(false);
  });
});
