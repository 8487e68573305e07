// `Tool.requireApproval`: the wrapper that puts a ToolApproval in a tool's
// metadata, and the grant check every approval-needing tool runs under.
import { ApprovalUnavailableError } from "../errors/approval-unavailable-error.js";
import { DelegatingTool } from "./abstract-tool.js";
import { ApprovalGrant } from "./approval-grant.js";
import { checkApproval, type ToolApproval } from "./tool-approval.js";
import { ToolCallContext } from "./tool-call-context.js";
import type { Tool, ToolCallOptions } from "./tool-interface.js";
import type { ToolMetadata } from "./tool-metadata.js";
import type { ToolResult } from "./tool-result.js";
import type { TypeLike, TypeOf } from "./type-token.js";
import type { TypedTool } from "./typed-tool.js";

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
