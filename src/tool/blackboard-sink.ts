import { ConfigurationError } from "../errors/configuration-error.js";
import { AmbientProcess } from "./ambient-process.js";
import type { ArtifactSink } from "./artifact-sink.js";

/** The part of a blackboard a {@link BlackboardSink} writes to. */
export interface BlackboardTarget {
  /** Adds `value` to the blackboard. */
  add(value: unknown): unknown;
}

/**
 * Adds artifacts to a blackboard so other actions can use them: the given
 * one, or else the blackboard of the agent process the call runs in
 * (`AgentProcess.current()`), looked up at each artifact.
 */
export class BlackboardSink implements ArtifactSink {
  constructor(private readonly blackboard?: BlackboardTarget) {}

  /** Throws a {@link ConfigurationError} when no blackboard was given and no agent process is running. */
  accept(artifact: unknown): void {
    const blackboard = this.blackboard ?? AmbientProcess.current()?.blackboard;
    if (!blackboard) {
      throw new ConfigurationError(
        "No AgentProcess available for BlackboardSink: run the tool inside an agent process, or give the sink a blackboard.",
      );
    }
    blackboard.add(artifact);
  }
}
