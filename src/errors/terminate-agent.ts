import { ToolControlFlowSignal } from "./tool-control-flow-signal.js";

/**
 * Thrown by an action or a tool to end the whole agent process gracefully:
 * the process ends `terminated` with `reason`, keeping its blackboard.
 */
export class TerminateAgent extends ToolControlFlowSignal {
  constructor(readonly reason: string) {
    super(`Agent terminated: ${reason}`);
    this.name = "TerminateAgent";
  }

  static override isInstance(error: unknown): error is TerminateAgent {
    return ToolControlFlowSignal.isInstance(error) && error.name === "TerminateAgent";
  }
}
