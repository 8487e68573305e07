import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * Model behaviour: the model kept calling a tool that does not exist after
 * being told the available names (more consecutive misses than allowed).
 */
export class ToolNotFoundError extends EmbabelError {
  constructor(
    /** The name the model asked for. */
    readonly requestedTool: string,
    /** The names that were available. */
    readonly availableTools: readonly string[],
  ) {
    super(`Tool '${requestedTool}' not found. Available tools: [${availableTools.join(", ")}]`);
    this.name = "ToolNotFoundError";
  }

  static override isInstance(error: unknown): error is ToolNotFoundError {
    return isNamedError(error, "ToolNotFoundError");
  }
}
