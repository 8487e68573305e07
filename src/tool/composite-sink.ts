import type { ArtifactSink } from "./artifact-sink.js";

/** Forwards every artifact to each sink in turn; with no sinks it does nothing. */
export class CompositeSink implements ArtifactSink {
  /** The sinks, in delivery order. */
  readonly sinks: readonly ArtifactSink[];

  constructor(...sinks: ArtifactSink[]) {
    this.sinks = sinks;
  }

  async accept(artifact: unknown): Promise<void> {
    for (const sink of this.sinks) await sink.accept(artifact);
  }
}
