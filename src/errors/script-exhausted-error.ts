import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * A scripted test model received more requests than it has scripted steps.
 * The message names the request that found the script empty.
 */
export class ScriptExhaustedError extends EmbabelError {
  constructor(
    /** 1-based number of the request that found no step. */
    readonly requestNumber: number,
    /** How many steps the script held in total. */
    readonly scriptLength: number,
    /** Names of the tools offered with the unanswered request. */
    readonly toolNames: readonly string[],
  ) {
    super(
      `ScriptedModel has no step for request #${requestNumber}: the script held ${scriptLength} step(s) and all were consumed. ` +
        `Tools offered with this request: [${toolNames.join(", ")}]. Add a step (for example ScriptedModel.text("...")) or check why the loop called the model again.`,
    );
    this.name = "ScriptExhaustedError";
  }

  static override isInstance(error: unknown): error is ScriptExhaustedError {
    return isNamedError(error, "ScriptExhaustedError");
  }
}
