import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * A limit: the tool loop made `maxIterations` LLM calls and the model still
 * asked for tools. Carries the transcript so the caller can see what went round.
 */
export class MaxIterationsExceededError extends EmbabelError {
  constructor(
    /** The limit that was reached. */
    readonly maxIterations: number,
    /** The whole conversation up to the limit, tool calls and results included. */
    readonly transcript: LanguageModelV3Prompt,
  ) {
    super(
      `Tool loop exceeded maximum iterations (${maxIterations}). This may indicate a loop in tool calls or an overly complex task.`,
    );
    this.name = "MaxIterationsExceededError";
  }

  static override isInstance(error: unknown): error is MaxIterationsExceededError {
    return isNamedError(error, "MaxIterationsExceededError");
  }
}
