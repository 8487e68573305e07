import { createHash } from "node:crypto";
import { ApprovalUnavailableError } from "../errors/approval-unavailable-error.js";
import type { PendingRequest } from "../errors/awaiting-response.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import type { ApprovalAnswer, ApprovalAuthority, ApprovalCheck } from "../tool/approval-authority.js";
import { ApprovalGrant } from "../tool/approval-grant.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { approvalMessage, type ToolApproval } from "../tool/tool-approval.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolResult } from "../tool/tool-result.js";
import { TypeParseError } from "../tool/type-token.js";
import { AnswerChecks } from "./answer-checks.js";
import { parseToolArguments } from "./parse-tool-arguments.js";

export type { ApprovalAnswer, ApprovalAuthority, ApprovalCheck } from "../tool/approval-authority.js";

/** One call of a tool, as any route hands it to the gate. */
export interface GateCall {
  /** The tool to run (found by the caller). */
  readonly tool: Tool;
  /** The name it was called by. */
  readonly toolName: string;
  /** Raw JSON arguments as received. */
  readonly input: string;
  /** OUR stable id of this call site (the loop: `<loopId>/<round>.<index>`; a shortcut: `<outer key>/<inner tool>`), never a provider's id. */
  readonly callKey: string;
}

/** Where a call runs. */
export interface GateEnvironment {
  readonly context: ToolCallContext;
  readonly callOptions?: ToolCallOptions;
  readonly signal?: AbortSignal;
  /**
   * Who answers approvals; absent: `callOptions.approvals`, else the ambient
   * agent process's waits, else an {@link ApprovalUnavailableError} is thrown.
   */
  readonly approvals?: ApprovalAuthority;
}

/** What the gate made of a call. */
export type GateOutcome =
  | {
      readonly kind: "ran";
      /** The JSON arguments the tool ran with (approved or edited, validated). */
      readonly input: string;
      readonly value: Record<string, unknown>;
      readonly result: ToolResult;
    }
  /** Answered in-band without running the tool: bad arguments, or denied. */
  | { readonly kind: "refused"; readonly message: string; readonly value: unknown }
  /** A person must answer first. */
  | { readonly kind: "pending"; readonly request: PendingRequest };

/** What the gate decided before running: run (with a grant when approval was needed), refuse, or wait. */
export type GateAdmission =
  | {
      readonly kind: "run";
      readonly input: string;
      readonly value: Record<string, unknown>;
      /** The approval the grant is for (set when a person or the policy let an approval-gated tool run). */
      readonly approval?: ToolApproval;
      /** True when the arguments are a person's edit. */
      readonly edited?: boolean;
    }
  | { readonly kind: "refused"; readonly message: string; readonly value: unknown }
  | { readonly kind: "pending"; readonly request: PendingRequest };

/** Admission options the loop uses. */
export interface AdmitOptions {
  /** Look ahead only: no answer is used up (the gate lists the requests of a round that stops). @default false */
  readonly peek?: boolean;
}

/** How many times an approval callback is asked again after a refused edit before the call is refused. */
const MAX_EDIT_ATTEMPTS = 3;

/**
 * The one gate every route runs a tool through, in this order: parse and
 * validate the arguments (JSON, JSON Schema with scalar coercion, and the
 * typed tool's own parse with defaults and transforms); decide on the
 * validated value with the tool's `when` (a throw means "ask") and word the
 * `message` (a throw gives the default); ask whoever answers approvals; run
 * the tool with exactly the approved (or edited and re-validated) input.
 * Errors thrown by the tool propagate.
 */
export async function gateToolCall(call: GateCall, environment: GateEnvironment): Promise<GateOutcome> {
  const admission = await admitToolCall(call, environment);
  if (admission.kind !== "run") return admission;
  const options = callOptionsFor(environment, call.callKey);
  const run = (): Promise<ToolResult> => call.tool.call(admission.input, environment.context, options);
  const result = await (admission.approval === undefined
    ? run()
    : ApprovalGrant.run(admission.approval, admission.input, run));
  return { kind: "ran", input: admission.input, value: admission.value, result };
}

/** The call options a gated call runs with: the caller's, with this call's key. */
export function callOptionsFor(environment: GateEnvironment, callKey: string): ToolCallOptions {
  const base = environment.callOptions;
  const signal = environment.signal ?? base?.signal;
  const approvals = environment.approvals ?? base?.approvals;
  return {
    ...base,
    callKey,
    ...(signal !== undefined ? { signal } : {}),
    ...(approvals !== undefined ? { approvals } : {}),
  };
}

/** The gate up to running: validated arguments and a decision. */
export async function admitToolCall(
  call: GateCall,
  environment: GateEnvironment,
  options: AdmitOptions = {},
): Promise<GateAdmission> {
  const { tool } = call;
  const parsed = parseToolArguments(tool, call.input);
  if (!parsed.ok) return { kind: "refused", message: parsed.message, value: parsed.value };
  const approval = tool.metadata.approval;
  if (approval === undefined) return { kind: "run", input: parsed.input, value: parsed.value };
  const validated = readValidated(tool, call.toolName, parsed.value);
  if (!validated.ok) return { kind: "refused", message: validated.message, value: parsed.value };
  if (!(await needsApproval(approval, validated.value, environment.context)))
    return { kind: "run", input: parsed.input, value: parsed.value, approval };
  const authority = authorityOf(environment);
  if (authority === undefined) throw ApprovalUnavailableError.nobodyToAsk(call.toolName);
  const signal = environment.signal ?? environment.callOptions?.signal;
  let check: ApprovalCheck = {
    callKey: call.callKey,
    toolName: call.toolName,
    value: validated.value,
    input: parsed.input,
    digest: inputDigest(parsed.input),
    message: approvalMessage(approval, call.toolName, validated.value),
    inputSchema: tool.definition.inputSchema.jsonSchema,
    ...(approval.timeoutMs !== undefined ? { timeoutMs: approval.timeoutMs } : {}),
    ...(options.peek ? { peek: true } : {}),
    ...(signal !== undefined ? { signal } : {}),
  };
  for (let attempt = 1; ; attempt += 1) {
    const answer = await authority.decide(check);
    if (answer === "ask") {
      const request = requestOf(check, parsed.value);
      // The live process checks an edit exactly as the tool will (zod refinements included) before accepting it.
      AnswerChecks.attach(request, (edited) => {
        const edit = validateEdit(tool, call.toolName, edited);
        return edit.ok ? undefined : edit.problem;
      });
      return { kind: "pending", request };
    }
    if (options.peek) return { kind: "run", input: parsed.input, value: parsed.value, approval };
    if (!answer.approved)
      return { kind: "refused", message: denialMessage(answer.reason), value: parsed.value };
    if (answer.input === undefined)
      return { kind: "run", input: parsed.input, value: parsed.value, approval };
    const edit = validateEdit(tool, call.toolName, answer.input);
    if (edit.ok) return { kind: "run", input: edit.input, value: edit.value, approval, edited: true };
    if (attempt >= MAX_EDIT_ATTEMPTS)
      return {
        kind: "refused",
        message: `The person's edited arguments were refused: ${edit.problem}`,
        value: parsed.value,
      };
    check = { ...check, problem: edit.problem };
  }
}

/** The authority of `environment`, else of the call options, else of the ambient agent process. */
function authorityOf(environment: GateEnvironment): ApprovalAuthority | undefined {
  return environment.approvals ?? environment.callOptions?.approvals ?? AmbientProcess.current()?.approvals;
}

/** `approval.when` on the validated value; no `when`, or a throwing one, means "ask". */
async function needsApproval(
  approval: ToolApproval,
  value: unknown,
  context: ToolCallContext,
): Promise<boolean> {
  if (approval.when === undefined) return true;
  try {
    return (await approval.when(value, context)) !== false;
  } catch {
    return true;
  }
}

type Validated =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string };

/** The typed tool's own parse of `value` (defaults, transforms, refinements), or `value` when it has none. */
function readValidated(tool: Tool, toolName: string, value: unknown): Validated {
  const read = tool.definition.inputSchema.read;
  if (read === undefined) return { ok: true, value };
  try {
    return { ok: true, value: read(value) };
  } catch (error) {
    return {
      ok: false,
      message: `Invalid arguments for tool '${toolName}': ${problemsOf(error)}. Call the tool again with arguments that match its input schema.`,
    };
  }
}

function problemsOf(error: unknown): string {
  if (TypeParseError.isInstance(error)) return error.problems.join("; ");
  return error instanceof Error ? error.message : String(error);
}

type ValidatedEdit =
  | { readonly ok: true; readonly input: string; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly problem: string };

/** A person's edited arguments, validated exactly as the model's are (JSON Schema, coercion, the typed parse). */
export function validateEdit(tool: Tool, toolName: string, edited: unknown): ValidatedEdit {
  const text = JSON.stringify(edited);
  if (text === undefined) return { ok: false, problem: "the edited arguments are not JSON" };
  const parsed = parseToolArguments(tool, text);
  if (!parsed.ok) return { ok: false, problem: parsed.message };
  const read = readValidated(tool, toolName, parsed.value);
  if (!read.ok) return { ok: false, problem: read.message };
  return { ok: true, input: parsed.input, value: parsed.value };
}

/** The durable request for `check`: keyed by the call, bound to the tool and the digest of its input. */
function requestOf(check: ApprovalCheck, value: unknown): PendingRequest {
  return {
    kind: "approval",
    key: check.callKey,
    toolName: check.toolName,
    arguments: value,
    message: check.message,
    inputSchema: check.inputSchema,
    digest: check.digest,
    ...(check.timeoutMs !== undefined ? { timeoutMs: check.timeoutMs } : {}),
    ...(check.problem !== undefined ? { problem: check.problem } : {}),
  };
}

/** The digest an answer is bound to: SHA-256 of the exact JSON arguments. */
export function inputDigest(input: string): string {
  return createHash("sha256").update(input).digest("base64url");
}

/** The in-band answer to a denied call. */
export function denialMessage(reason: string | undefined): string {
  return `The user denied this call: ${reason === undefined || reason.trim() === "" ? "no reason given" : reason}`;
}

/** True when `answer` is bound to the call `check` describes. */
export function answerFits(
  binding: { readonly toolName?: unknown; readonly digest?: unknown },
  check: ApprovalCheck,
): boolean {
  return binding.toolName === check.toolName && binding.digest === check.digest;
}

/** An answer as `decide` returns it: `approved`, and `input` or `reason` when given. */
export function plainAnswer(answer: ApprovalAnswer): ApprovalAnswer {
  if (!answer.approved)
    return answer.reason === undefined ? { approved: false } : { approved: false, reason: answer.reason };
  return answer.input === undefined ? { approved: true } : { approved: true, input: answer.input };
}
