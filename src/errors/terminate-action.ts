import { ToolControlFlowSignal } from "./tool-control-flow-signal.js";

/**
 * Thrown by an action or a tool to end only the current action: the process
 * stays running, records the action as terminated, and plans its next step.
 */
export class TerminateAction extends ToolControlFlowSignal {
  constructor(readonly reason: string) {
    super(`Action terminated: ${reason}`);
    this.name = "TerminateAction";
  }

  static override isInstance(error: unknown): error is TerminateAction {
    return ToolControlFlowSignal.isInstance(error) && error.name === "TerminateAction";
  }
}
