import type { PendingRequest } from "../errors/awaiting-response.js";
import type { Tool } from "../tool/tool.js";
import { approvalMessage, type ToolApproval } from "../tool/tool-approval.js";
import { ToolResult } from "../tool/tool-result.js";
import type { ModelToolCall, ToolCallEnvironment, ToolCallOutcome } from "./execute-tool-call.js";
import type { ApprovalAnswer, LoopWaits, SettledCall } from "./loop-waits.js";
import type { ToolSet } from "./tool-set.js";

/** What to do with a call of a tool that needs approval. */
export type ApprovalDecision =
  | { readonly kind: "run" }
  | { readonly kind: "answered"; readonly answer: ApprovalAnswer }
  | { readonly kind: "pending"; readonly request: PendingRequest };

const RUN: ApprovalDecision = Object.freeze({ kind: "run" });

/** Why a call is not approved outside an agent process. */
export const NO_PERSON_TO_ASK =
  "this tool needs a person's approval, and nobody can be asked outside an agent process";

/**
 * Decides a call of `tool` (whose metadata asks for approval): run it (its
 * `when` says no approval is needed, or its arguments are not JSON, which the
 * call answers in-band), apply the answer given, or ask.
 */
export async function decideApproval(
  call: ModelToolCall,
  tool: Tool,
  environment: ToolCallEnvironment & { readonly waits?: LoopWaits },
): Promise<ApprovalDecision> {
  const approval = tool.metadata.approval as ToolApproval;
  let input: unknown;
  try {
    input = JSON.parse(call.input.trim() === "" ? "{}" : call.input);
  } catch {
    return RUN;
  }
  if (approval.when !== undefined && !(await approval.when(input, environment.context))) return RUN;
  const waits = environment.waits;
  if (waits === undefined) return { kind: "answered", answer: { approved: false, reason: NO_PERSON_TO_ASK } };
  const key = `${environment.loopId}/${call.toolCallId}`;
  const answer = waits.approvalAnswer(key);
  if (answer !== undefined) return { kind: "answered", answer };
  return {
    kind: "pending",
    request: {
      kind: "approval",
      key,
      toolName: call.toolName,
      arguments: input,
      message: approvalMessage(approval, call.toolName, input),
      inputSchema: tool.definition.inputSchema.jsonSchema,
      ...(approval.timeoutMs !== undefined ? { timeoutMs: approval.timeoutMs } : {}),
    },
  };
}

/** The in-band answer to a denied call. */
export function denialMessage(reason: string | undefined): string {
  return `The user denied this call: ${reason === undefined || reason.trim() === "" ? "no reason given" : reason}`;
}

/** An outcome as kept in a suspended loop. */
export function settledCall(outcome: ToolCallOutcome): SettledCall {
  const { call, result } = outcome;
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    value: outcome.value,
    ...(outcome.input !== undefined ? { input: outcome.input } : {}),
    resultKind: result.kind === "error" ? "error" : "text",
    content: result.content,
    output: outcome.output,
    ...(outcome.failed ? { failed: true } : {}),
  };
}

/** The outcome a resumed round reports for a call settled before it stopped. */
export function restoredOutcome(call: ModelToolCall, settled: SettledCall, tools: ToolSet): ToolCallOutcome {
  const tool = settled.input === undefined ? undefined : tools.get(settled.toolName);
  return {
    call,
    ...(tool ? { tool } : {}),
    ...(settled.input !== undefined ? { input: settled.input } : {}),
    value: settled.value,
    result:
      settled.resultKind === "error" ? ToolResult.error(settled.content) : ToolResult.text(settled.content),
    output: settled.output,
    ...(settled.failed ? { failed: true } : {}),
  };
}
