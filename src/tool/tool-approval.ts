import { ConfigurationError } from "../errors/configuration-error.js";
import type { ToolCallContext } from "./tool-call-context.js";

/**
 * When and how a tool asks a person before it runs (see `Tool.requireApproval`).
 * `I` is the validated input the tool gets (typed tools: the input type).
 */
export interface ToolApproval<I = unknown> {
  /** Decides per call whether approval is needed, given the validated arguments (defaults and coercions applied); a throw means "ask". @default every call */
  readonly when?: (input: I, context: ToolCallContext) => boolean | Promise<boolean>;
  /** What the person is told; a function gets the validated arguments (a throw gives the default). @default "Allow <tool> to run with these arguments?" */
  readonly message?: string | ((input: I) => string);
  /** Unanswered this long, the call is denied with reason "timed out". @default undefined (waits for ever) */
  readonly timeoutMs?: number;
}

/** Throws a {@link ConfigurationError} for a bad `timeoutMs`, `when` or `message`. */
export function checkApproval(toolName: string, approval: ToolApproval): void {
  const { timeoutMs, when, message } = approval;
  if (timeoutMs !== undefined && (!Number.isFinite(timeoutMs) || timeoutMs <= 0)) {
    throw new ConfigurationError(
      `Tool '${toolName}': approval timeoutMs must be a positive number of milliseconds, got ${timeoutMs}.`,
    );
  }
  if (when !== undefined && typeof when !== "function") {
    throw new ConfigurationError(`Tool '${toolName}': approval 'when' must be a function.`);
  }
  if (message !== undefined && typeof message !== "function" && typeof message !== "string") {
    throw new ConfigurationError(`Tool '${toolName}': approval 'message' must be a string or a function.`);
  }
}

/** The default message for a call of `toolName`. */
export function defaultApprovalMessage(toolName: string): string {
  return `Allow ${toolName} to run with these arguments?`;
}

/** The message shown for a call of `toolName` with `input`; a `message` function that throws (or returns no string) gives the default. */
export function approvalMessage(approval: ToolApproval, toolName: string, input: unknown): string {
  const { message } = approval;
  if (typeof message === "function") {
    try {
      const shown = message(input);
      return typeof shown === "string" ? shown : defaultApprovalMessage(toolName);
    } catch {
      return defaultApprovalMessage(toolName);
    }
  }
  return message ?? defaultApprovalMessage(toolName);
}
