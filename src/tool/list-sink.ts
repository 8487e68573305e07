import type { ArtifactSink } from "./artifact-sink.js";

/** Collects artifacts in a list, in the order they arrive. */
export class ListSink<T = unknown> implements ArtifactSink {
  private readonly target: T[];

  /** Appends to `target` when given, else to a list of its own. */
  constructor(target: T[] = []) {
    this.target = target;
  }

  accept(artifact: unknown): void {
    this.target.push(artifact as T);
  }

  /** A snapshot of the artifacts collected so far (it does not grow later). */
  items(): readonly T[] {
    return Object.freeze([...this.target]);
  }
}
