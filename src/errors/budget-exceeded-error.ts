import { EmbabelError, isNamedError } from "./embabel-error.js";

/** Which budget of a process ran out. */
export type BudgetKind = "cost" | "tokens" | "actions";

/**
 * A limit: an agent process used up its budget (cost, tokens or actions).
 * The process ends `terminated` with this message as its reason, keeping its
 * blackboard. The messages are the reference's, byte for byte.
 */
export class BudgetExceededError extends EmbabelError {
  constructor(
    /** The budget that ran out. */
    readonly kind: BudgetKind,
    /** The limit that was reached. */
    readonly limit: number,
    /** How much had been used when the limit was checked. */
    readonly used: number,
  ) {
    super(budgetMessage(kind, limit, used));
    this.name = "BudgetExceededError";
  }

  static override isInstance(error: unknown): error is BudgetExceededError {
    return isNamedError(error, "BudgetExceededError");
  }
}

function budgetMessage(kind: BudgetKind, limit: number, used: number): string {
  switch (kind) {
    case "actions":
      return `Max actions of ${limit} reached`;
    case "tokens":
      return `Max tokens of ${limit} reached`;
    case "cost":
      return `Exceeded budget of $${limit.toFixed(4)}: cost=$${used.toFixed(4)}`;
  }
}
