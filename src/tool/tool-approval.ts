import { ApprovalUnavailableError } from "../errors/approval-unavailable-error.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { DelegatingTool } from "./abstract-tool.js";
import { ApprovalGrant } from "./approval-grant.js";
import type { Tool, ToolCallOptions } from "./tool.js";
import { ToolCallContext } from "./tool-call-context.js";
import type { ToolMetadata } from "./tool-metadata.js";
import type { ToolResult } from "./tool-result.js";
import type { TypeLike, TypeOf } from "./type-token.js";
import type { TypedTool } from "./typed-tool.js";

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

/** The validated input type of `T`: a typed tool's input type, else `unknown`. */
export type ToolInputOf<T> = T extends TypedTool<infer I extends TypeLike, TypeLike> ? TypeOf<I> : unknown;

/**
 * `tool` with `approval` in its metadata: definition unchanged; it runs only
 * under the grant the approval gate gives for exactly that call.
 */
class ApprovalRequiringTool extends DelegatingTool {
  private readonly approvalMetadata: ToolMetadata;

  constructor(delegate: Tool, approval: ToolApproval) {
    super(delegate);
    this.approvalMetadata = Object.freeze({ ...delegate.metadata, approval });
  }

  override get metadata(): ToolMetadata {
    return this.approvalMetadata;
  }

  override call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    // The gate's own defence in depth: runs only under the grant the gate gave for exactly this input.
    return callGranted(this.approvalMetadata, this.definition.name, input, () =>
      this.delegate.call(input, context, options),
    );
  }
}

/**
 * Runs `run` when the approval gate granted this call (`metadata.approval`,
 * exactly `input`), without passing the grant on to nested calls; otherwise
 * rejects with an {@link ApprovalUnavailableError}. Tools without approval run as they are.
 */
export function callGranted(
  metadata: ToolMetadata,
  toolName: string,
  input: string,
  run: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const approval = metadata.approval;
  if (approval === undefined) return run();
  if (!ApprovalGrant.take(approval, input))
    return Promise.reject(ApprovalUnavailableError.calledAroundGate(toolName));
  return ApprovalGrant.without(run);
}

/**
 * Wraps `tool` so that every route that runs it passes the approval gate: a
 * call (or each call `when` selects, given the validated arguments) waits for
 * a person inside an agent process, asks the approval callback outside one, or
 * throws an `ApprovalUnavailableError` when nobody can be asked. A direct
 * `tool.call(...)` around the gate rejects with that error too.
 */
export function requireApproval<T extends Tool>(tool: T, approval: ToolApproval<ToolInputOf<T>> = {}): Tool {
  checkApproval(tool.definition.name, approval as ToolApproval);
  return new ApprovalRequiringTool(tool, approval as ToolApproval);
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
