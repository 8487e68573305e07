import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * A queued process can no longer be followed: its job is gone from Redis
 * (Redis restarted without persistence, was flushed, or evicted the key) and
 * no finished checkpoint is left. The process may have run in part; run it
 * again (the same id may be reused).
 */
export class ProcessLostError extends EmbabelError {
  constructor(
    /** The process that was lost. */
    readonly processId: string,
    /** The queue it was sent to. */
    readonly queue: string,
  ) {
    super(
      `Process ${processId} is lost: its job is gone from queue '${queue}' in Redis (restarted without persistence, flushed, or evicted) and it left no finished checkpoint. Run it again; enable AOF (appendonly yes) to keep runs across Redis restarts.`,
    );
    this.name = "ProcessLostError";
  }

  static override isInstance(error: unknown): error is ProcessLostError {
    return isNamedError(error, "ProcessLostError");
  }
}
