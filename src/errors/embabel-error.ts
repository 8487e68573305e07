const marker = Symbol.for("embabel-ts.error");

/**
 * Base class of every error this library throws. Each subclass has a stable
 * `name` and a static `isInstance`, which works across duplicate package copies
 * where `instanceof` does not.
 */
export class EmbabelError extends Error {
  /** Brand read by `isInstance`. */
  readonly [marker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EmbabelError";
  }

  /** True for any error thrown by this library. */
  static isInstance(error: unknown): error is EmbabelError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** Builds the `isInstance` guard of a subclass from its stable name. */
export function isNamedError<T extends EmbabelError>(error: unknown, name: string): error is T {
  return EmbabelError.isInstance(error) && error.name === name;
}
