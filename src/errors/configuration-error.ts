import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * The programmer's mistake: a bad tool name, a missing model, an unknown tool
 * group, a class without tool methods. The message names the thing to fix.
 */
export class ConfigurationError extends EmbabelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConfigurationError";
  }

  static override isInstance(error: unknown): error is ConfigurationError {
    return isNamedError(error, "ConfigurationError");
  }
}
