import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * A stored checkpoint cannot be read: it is not JSON, lacks a field, has a
 * malformed value or a `$ref` to no object, or was written by a newer
 * embabel-ts. Names the process and the problem; never a silently wrong
 * process.
 */
export class CheckpointError extends EmbabelError {
  constructor(
    /** The process whose checkpoint could not be read. */
    readonly processId: string,
    /** What is wrong with it, without the process id. */
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`Cannot read the checkpoint of process ${processId}: ${problem}`, options);
    this.name = "CheckpointError";
  }

  static override isInstance(error: unknown): error is CheckpointError {
    return isNamedError(error, "CheckpointError");
  }
}
