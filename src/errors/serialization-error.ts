import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * An object cannot travel between machines: a blackboard object, input or
 * result of a type no deployed agent declares and no `types` entry names, or
 * a value JSON cannot carry (a function, a cycle). Thrown when a run is
 * enqueued or a process is checkpointed, never later as a silent loss.
 */
export class SerializationError extends EmbabelError {
  constructor(
    message: string,
    /** The type that could not be serialised or restored. */
    readonly typeName: string,
  ) {
    super(message);
    this.name = "SerializationError";
  }

  static override isInstance(error: unknown): error is SerializationError {
    return isNamedError(error, "SerializationError");
  }
}
