import { EmbabelError, isNamedError } from "../errors/embabel-error.js";

/**
 * A mistake on the command line (unknown command, option or example). The CLI
 * prints its message, without a stack trace, and exits with status 2.
 */
export class UsageError extends EmbabelError {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }

  static override isInstance(error: unknown): error is UsageError {
    return isNamedError(error, "UsageError");
  }
}
