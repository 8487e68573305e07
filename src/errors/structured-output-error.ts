import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * The model's answer to `createObject` could not be read as the requested
 * type, even after one corrective retry. Carries the raw text of the last
 * answer and what was wrong with it.
 */
export class StructuredOutputError extends EmbabelError {
  constructor(
    /** The name of the requested type. */
    readonly typeName: string,
    /** The model's last answer, verbatim. */
    readonly rawText: string,
    /** What was wrong, one line per problem. */
    readonly problems: readonly string[],
    /** How many answers were tried (the first and the corrected one). */
    readonly attempts: number,
  ) {
    super(
      `The model's answer is not a valid ${typeName} after ${attempts} attempt(s): ${problems.join("; ")}. Raw answer: ${truncate(rawText)}`,
    );
    this.name = "StructuredOutputError";
  }

  static override isInstance(error: unknown): error is StructuredOutputError {
    return isNamedError(error, "StructuredOutputError");
  }
}

function truncate(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
