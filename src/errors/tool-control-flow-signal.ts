const marker = Symbol.for("embabel-ts.control-flow-signal");

/**
 * A thrown value that is flow control, not failure (replan, terminate). Tools,
 * decorators and the tool loop let these pass through untouched.
 */
export abstract class ToolControlFlowSignal extends Error {
  /** Brand read by `isInstance`. */
  readonly [marker] = true;

  /** True for any control-flow signal, across package copies. */
  static isInstance(error: unknown): error is ToolControlFlowSignal {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
