import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * An answer to a waiting process that cannot be accepted: an unknown process
 * or request, a request already answered, edited arguments or form values that
 * fail the schema. The responder's mistake: the process keeps waiting.
 */
export class InvalidResponseError extends EmbabelError {
  constructor(
    message: string,
    /** The process answered. */
    readonly processId: string,
    /** The request answered. */
    readonly requestId: string,
  ) {
    super(message);
    this.name = "InvalidResponseError";
  }

  static override isInstance(error: unknown): error is InvalidResponseError {
    return isNamedError(error, "InvalidResponseError");
  }
}
