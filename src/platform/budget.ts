import { ConfigurationError } from "../errors/configuration-error.js";

/** The limits of one agent process; reaching one ends the process `terminated`. */
export interface Budget {
  /** Maximum cost in US dollars. @default 2.0 */
  readonly cost: number;
  /** Maximum number of action runs. @default 50 */
  readonly actions: number;
  /** Maximum number of LLM tokens (input + output). @default 1_000_000 */
  readonly tokens: number;
}

const DEFAULT_BUDGET: Budget = Object.freeze({ cost: 2.0, actions: 50, tokens: 1_000_000 });

/** The reference's defaults, and validation. */
export const Budget = {
  /** `{ cost: 2.0, actions: 50, tokens: 1_000_000 }`. */
  DEFAULT: DEFAULT_BUDGET,
  /** `base` with `changes` applied; every limit must be a non-negative number. */
  of(changes: Partial<Budget> = {}, base: Budget = DEFAULT_BUDGET): Budget {
    const budget = { ...base, ...changes };
    for (const key of ["cost", "actions", "tokens"] as const) {
      const value = budget[key];
      if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
        throw new ConfigurationError(`Budget ${key} must be a non-negative number, got ${String(value)}.`);
      }
    }
    return Object.freeze(budget);
  },
};
