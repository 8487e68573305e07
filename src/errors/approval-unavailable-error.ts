import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * A tool that needs a person's approval was called where nobody can be asked
 * (outside an agent process, with no approval callback), or was called around
 * the gate (`tool.call(...)` directly). The message says how to get approvals.
 */
export class ApprovalUnavailableError extends EmbabelError {
  constructor(
    message: string,
    /** The tool that needed approval. */
    readonly toolName: string,
  ) {
    super(message);
    this.name = "ApprovalUnavailableError";
  }

  static override isInstance(error: unknown): error is ApprovalUnavailableError {
    return isNamedError(error, "ApprovalUnavailableError");
  }

  /** Nobody to ask for `toolName`'s approval. */
  static nobodyToAsk(toolName: string): ApprovalUnavailableError {
    return new ApprovalUnavailableError(
      `Tool '${toolName}' needs a person's approval, and nobody can be asked here. ` +
        "Run it inside an agent process (an action, platform.run), where the process waits for an answer, " +
        "or pass an approval callback: createAgentPlatform({ onApproval }) or platform.ai().withApproval(callback).",
      toolName,
    );
  }

  /** `toolName` was called directly, without the gate's grant. */
  static calledAroundGate(toolName: string): ApprovalUnavailableError {
    return new ApprovalUnavailableError(
      `Tool '${toolName}' needs a person's approval and was called directly (tool.call), around the approval gate. ` +
        "Offer it to a tool loop (platform.ai().withTool(...)), or call gateToolCall, so that a person approves the call first.",
      toolName,
    );
  }
}
