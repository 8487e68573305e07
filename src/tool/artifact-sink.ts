/**
 * Where an {@link ArtifactSinkingTool} sends captured artifacts: a list, the
 * blackboard, an event stream… Implement `accept` for a custom destination.
 */
export interface ArtifactSink {
  /** Receives one artifact; may be async (the tool awaits it). */
  accept(artifact: unknown): void | Promise<void>;
}
