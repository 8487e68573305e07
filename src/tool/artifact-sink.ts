/**
 * Where an {@link ArtifactSinkingTool} sends captured artifacts: a list, the
 * blackboard, an event stream… Implement `accept` for a custom destination.
 */
export interface ArtifactSink {
  /** Receives one artifact; may be async (the tool awaits it). */
  accept(artifact: unknown): void | Promise<void>;
}

/**
 * A sink, or a function taking each artifact (the chapter's `artifact -> { ... }`
 * lambda); the function may declare the artifact's type: `(result: SearchResult) => …`.
 */
export type ArtifactSinkLike = ArtifactSink | ArtifactSink["accept"];

/** Turning an {@link ArtifactSinkLike} into a sink. */
export const ArtifactSink = {
  /** `sink` itself, or a sink whose `accept` is the function. */
  of(sink: ArtifactSinkLike): ArtifactSink {
    return typeof sink === "function" ? { accept: sink } : sink;
  },
};
