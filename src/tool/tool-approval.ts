import { ConfigurationError } from "../errors/configuration-error.js";
import { DelegatingTool } from "./abstract-tool.js";
import type { Tool } from "./tool.js";
import type { ToolCallContext } from "./tool-call-context.js";
import type { ToolMetadata } from "./tool-metadata.js";

/** When and how a tool asks a person before it runs (see `Tool.requireApproval`). */
export interface ToolApproval {
  /** Decides per call whether approval is needed, given the parsed arguments. @default every call */
  readonly when?: (input: unknown, context: ToolCallContext) => boolean | Promise<boolean>;
  /** What the person is told; a function gets the parsed arguments. @default "Allow <tool> to run with these arguments?" */
  readonly message?: string | ((input: unknown) => string);
  /** Unanswered this long, the call is denied with reason "timed out". @default undefined (waits for ever) */
  readonly timeoutMs?: number;
}

/** `tool` with `approval` in its metadata: definition and behaviour unchanged. */
class ApprovalRequiringTool extends DelegatingTool {
  private readonly approvalMetadata: ToolMetadata;

  constructor(delegate: Tool, approval: ToolApproval) {
    super(delegate);
    this.approvalMetadata = Object.freeze({ ...delegate.metadata, approval });
  }

  override get metadata(): ToolMetadata {
    return this.approvalMetadata;
  }
}

/**
 * Wraps `tool` so that, inside an agent process, a call of it stops the loop
 * before the tool runs and puts the process in `waiting` with an approval
 * request (tool name, arguments, message); outside a process the call is
 * answered in-band as not approved.
 */
export function requireApproval(tool: Tool, approval: ToolApproval = {}): Tool {
  checkApproval(tool.definition.name, approval);
  return new ApprovalRequiringTool(tool, approval);
}

/** Throws a {@link ConfigurationError} for a bad `timeoutMs` or `when`. */
export function checkApproval(toolName: string, approval: ToolApproval): void {
  const { timeoutMs, when } = approval;
  if (timeoutMs !== undefined && (!Number.isFinite(timeoutMs) || timeoutMs <= 0)) {
    throw new ConfigurationError(
      `Tool '${toolName}': approval timeoutMs must be a positive number of milliseconds, got ${timeoutMs}.`,
    );
  }
  if (when !== undefined && typeof when !== "function") {
    throw new ConfigurationError(`Tool '${toolName}': approval 'when' must be a function.`);
  }
}

/** The message shown for a call of `toolName` with `input`. */
export function approvalMessage(approval: ToolApproval, toolName: string, input: unknown): string {
  const { message } = approval;
  if (typeof message === "function") return message(input);
  return message ?? `Allow ${toolName} to run with these arguments?`;
}
