import { ToolControlFlowSignal } from "./tool-control-flow-signal.js";

/** Updates the blackboard before the agent process replans. */
export type BlackboardUpdater = (blackboard: { add(value: unknown): unknown }) => void;

/**
 * Thrown by a tool to end the current tool loop gracefully and ask the agent
 * process to plan again, optionally updating the blackboard first.
 */
export class ReplanRequested extends ToolControlFlowSignal {
  constructor(
    readonly reason: string,
    readonly blackboardUpdater: BlackboardUpdater = () => {},
  ) {
    super(`Replan requested: ${reason}`);
    this.name = "ReplanRequested";
  }

  static override isInstance(error: unknown): error is ReplanRequested {
    return ToolControlFlowSignal.isInstance(error) && error.name === "ReplanRequested";
  }
}
