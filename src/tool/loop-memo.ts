import { ConfigurationError } from "../errors/configuration-error.js";
import type { ToolCallContext } from "./tool-call-context.js";

/** Options of {@link LoopMemo}. */
export interface LoopMemoOptions {
  /** How many loop ids are remembered; the oldest is forgotten first. @default 1024 */
  readonly maxTracked?: number;
}

/**
 * Remembers which tool loops (by `ToolCallContext.loopId()`) have been seen,
 * so something can happen once per loop. Without a loop id every call is a
 * first time and nothing is remembered. Memory is bounded: past `maxTracked`
 * ids, the oldest inserted one is evicted.
 */
export class LoopMemo {
  /** How many loop ids are remembered. */
  readonly maxTracked: number;
  private readonly seen = new Set<string>();

  constructor(options: LoopMemoOptions = {}) {
    const maxTracked = options.maxTracked ?? 1024;
    if (!Number.isInteger(maxTracked) || maxTracked < 1) {
      throw new ConfigurationError(`LoopMemo maxTracked must be a positive integer, got ${maxTracked}.`);
    }
    this.maxTracked = maxTracked;
  }

  /** True the first time this memo sees the context's loop id (and always when there is none). */
  firstTimeIn(context?: ToolCallContext): boolean {
    const loopId = context?.loopId();
    if (loopId === undefined) return true;
    if (this.seen.has(loopId)) return false;
    this.seen.add(loopId);
    if (this.seen.size > this.maxTracked) {
      const oldest = this.seen.values().next().value as string;
      this.seen.delete(oldest);
    }
    return true;
  }

  /** Whether this memo has seen the context's loop id (false without one); remembers nothing. */
  has(context?: ToolCallContext): boolean {
    const loopId = context?.loopId();
    return loopId !== undefined && this.seen.has(loopId);
  }

  /** Forgets the context's loop id, so the next `firstTimeIn` for it is true again. */
  forget(context?: ToolCallContext): void {
    const loopId = context?.loopId();
    if (loopId !== undefined) this.seen.delete(loopId);
  }
}
