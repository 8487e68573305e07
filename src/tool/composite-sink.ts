import { ArtifactSink, type ArtifactSinkLike } from "./artifact-sink.js";

/** Forwards every artifact to each sink (or function) in turn; with no sinks it does nothing. */
export class CompositeSink implements ArtifactSink {
  /** The sinks, in delivery order. */
  readonly sinks: readonly ArtifactSink[];

  constructor(...sinks: ArtifactSinkLike[]) {
    this.sinks = sinks.map(ArtifactSink.of);
  }

  async accept(artifact: unknown): Promise<void> {
    for (const sink of this.sinks) await sink.accept(artifact);
  }
}
