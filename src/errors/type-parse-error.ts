import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * A JSON value did not fit a type (a tool's input, a structured output): the
 * model's mistake. `problems` says which field is wrong and what was expected,
 * one entry per problem (`a: Invalid input: expected number, received string`).
 */
export class TypeParseError extends EmbabelError {
  constructor(
    /** The name of the type the value was read into. */
    readonly typeName: string,
    /** What was wrong, one entry per field. */
    readonly problems: readonly string[],
  ) {
    super(`Invalid ${typeName}: ${problems.join("; ")}`);
    this.name = "TypeParseError";
  }

  static override isInstance(error: unknown): error is TypeParseError {
    return isNamedError(error, "TypeParseError");
  }
}
