import { EmbabelError, isNamedError } from "./embabel-error.js";

/** A file or text that is not a trace this package can read; the message says which line and why. */
export class TraceFormatError extends EmbabelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TraceFormatError";
  }

  static override isInstance(error: unknown): error is TraceFormatError {
    return isNamedError(error, "TraceFormatError");
  }
}
