import type { Server } from "@modelcontextprotocol/server";
import {
  type CallToolResult,
  type ElicitRequestFormParams,
  SdkErrorCode,
} from "@modelcontextprotocol/server";
import { InvalidResponseError } from "../../errors/invalid-response-error.js";
import type { AgentPlatform } from "../../platform/agent-platform.js";
import { AgentProcess } from "../../platform/agent-process.js";
import type { AwaitableRequest, AwaitableResponse } from "../../platform/awaitable.js";
import { communicatedResult } from "../../subagent/communicated-result.js";
import type { ApprovalAnswer, ApprovalCheck } from "../../tool/approval-authority.js";
import type { ToolResult } from "../../tool/tool-result.js";
import { RESPOND_TOOL_NAME, SERVED_TIMED_OUT as TIMED_OUT } from "./served-approvals.js";

/** The id a client gives the respond tool for request `requestId` of the waiting agent process `processId`. */
export function servedRequestId(processId: string, requestId: string): string {
  return `${processId}/${requestId}`;
}

/** The reason given when the person declines an approval in their MCP client. */
export const DECLINED_IN_CLIENT = "declined in the MCP client";

export const CONFIRMATION_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    approve: { type: "boolean", title: "Approve", description: "Allow it" },
    reason: { type: "string", title: "Reason", description: "Why not (when denied)" },
  },
  required: ["approve"],
};

/** The approval form: approve or not, why not, and the arguments edited (a JSON string; empty keeps them). */
export const APPROVAL_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    ...CONFIRMATION_SCHEMA.properties,
    input: {
      type: "string",
      title: "Edited arguments (JSON)",
      description: "Leave empty to approve the arguments as shown",
    },
  },
  required: ["approve"],
};

/** How often a person is asked again after an answer that is not one (edited arguments that are not JSON). */
const MAX_FORM_ATTEMPTS = 3;

/** An approval form's answer, checked; a string saying what is wrong with it otherwise. */
export function approvalFormAnswer(content: Readonly<Record<string, unknown>>): ApprovalAnswer | string {
  if (typeof content.approve !== "boolean") return "'approve' must be true or false";
  if (content.approve === false) {
    const reason =
      typeof content.reason === "string" && content.reason.trim() ? content.reason.trim() : undefined;
    return reason === undefined ? { approved: false } : { approved: false, reason };
  }
  const edited = content.input;
  if (edited === undefined || (typeof edited === "string" && edited.trim() === "")) return { approved: true };
  if (typeof edited !== "string") return "'input' must be the edited arguments as a JSON string";
  try {
    return { approved: true, input: JSON.parse(edited) };
  } catch {
    return `the edited arguments are not JSON: ${edited.length > 80 ? `${edited.slice(0, 80)}…` : edited}`;
  }
}

/**
 * Asks the client's user to approve the served call `check` (an elicitation
 * form: approve, reason, edited arguments as JSON), asking again when the
 * answer is not one. Resolves to the answer: declined is a denial, past the
 * approval's `timeoutMs` a denial "timed out"; `undefined` when the person
 * could not be asked or cancelled (the request is then left open to answer later).
 */
export async function elicitApproval(
  server: Server,
  check: ApprovalCheck,
): Promise<ApprovalAnswer | undefined> {
  let problem = check.problem;
  for (let attempt = 1; attempt <= MAX_FORM_ATTEMPTS; attempt++) {
    let result: Awaited<ReturnType<Server["elicitInput"]>>;
    try {
      result = await server.elicitInput(
        {
          mode: "form",
          message: `${check.message}\nTool '${check.toolName}' with ${JSON.stringify(check.value, null, 2)}${problem ? `\n(Asked again: ${problem})` : ""}`,
          requestedSchema: APPROVAL_SCHEMA,
        },
        {
          ...(check.signal ? { signal: check.signal } : {}),
          ...(check.timeoutMs !== undefined ? { timeout: check.timeoutMs } : {}),
        },
      );
    } catch (error) {
      if (check.timeoutMs !== undefined && (error as { code?: unknown }).code === SdkErrorCode.RequestTimeout)
        return { approved: false, reason: TIMED_OUT };
      return undefined;
    }
    if (result.action === "decline") return { approved: false, reason: DECLINED_IN_CLIENT };
    if (result.action !== "accept") return undefined;
    const answer = approvalFormAnswer(result.content ?? {});
    if (typeof answer !== "string") return answer;
    problem = answer;
  }
  return undefined;
}

/** The waiting process an agent tool's result carries, if any. */
export function waitingProcessOf(result: ToolResult): AgentProcess | undefined {
  if (result.kind !== "error") return undefined;
  const cause = result.cause;
  return AgentProcess.isAgentProcess(cause) && cause.status === "waiting" ? cause : undefined;
}

/**
 * Answers the requests of the waiting `process` by MCP elicitation, one at a
 * time, until it ends; resolves to the tool's result. A declined or cancelled
 * form (or an elicitation that fails) leaves the process waiting and is an
 * `isError` result naming the process and the request, so it can be answered later.
 */
export async function elicitWaits(
  server: Server,
  platform: AgentPlatform,
  process: AgentProcess,
  signal: AbortSignal,
): Promise<CallToolResult> {
  let current = process;
  // A refused answer (edited arguments or values the schema refuses) is asked again, saying why.
  let refused: { readonly requestId: string; readonly problem: string; readonly times: number } | undefined;
  while (current.status === "waiting") {
    const [request] = current.awaiting;
    if (request === undefined) break;
    // Asked again by the gate (an edit it refused), or here (an answer `respond` refused).
    const problem =
      refused?.requestId === request.id
        ? refused.problem
        : request.kind === "approval"
          ? request.problem
          : undefined;
    let response: AwaitableResponse | undefined;
    try {
      response = await elicit(server, request, signal, problem);
    } catch (error) {
      return waitingResult(current, request, `the elicitation failed: ${(error as Error).message}`);
    }
    if (response === undefined) return waitingResult(current, request, "the form was not submitted");
    try {
      current = await platform.respond(current.id, request.id, response, { respondent: "mcp" });
      refused = undefined;
    } catch (error) {
      if (!InvalidResponseError.isInstance(error)) throw error;
      const times = refused?.requestId === request.id ? refused.times + 1 : 1;
      if (times >= MAX_FORM_ATTEMPTS)
        return waitingResult(current, request, `the answer was refused: ${error.message}`);
      refused = { requestId: request.id, problem: `the answer was refused: ${error.message}`, times };
    }
  }
  if (current.status === "completed")
    return { content: [{ type: "text", text: communicatedResult(current.result) }] };
  const reason = current.statusReason ? `: ${current.statusReason}` : "";
  return { content: [{ type: "text", text: `Agent ${current.status}${reason}` }], isError: true };
}

/**
 * The elicitation form asking request `request` of a waiting process: a
 * form's own schema; an approval's approve, reason and edited arguments; a
 * confirmation's approve and reason. `problem` says why it is asked again.
 */
export function waitForm(
  request: AwaitableRequest,
  problem: string | undefined,
): Omit<ElicitRequestFormParams, "mode"> {
  const again = problem ? `\n(Asked again: ${problem})` : "";
  if (request.kind === "form") {
    return {
      message: `${request.title}${again}`,
      requestedSchema: request.schema as ElicitRequestFormParams["requestedSchema"],
    };
  }
  const approval = request.kind === "approval";
  const shown = approval ? request.arguments : request.payload;
  return {
    message: `${request.message}\n${request.what}\n${JSON.stringify(shown, null, 2)}${again}`,
    requestedSchema: approval ? APPROVAL_SCHEMA : CONFIRMATION_SCHEMA,
  };
}

/**
 * The answer to `request` a person gave in an elicitation form: a form's
 * values when accepted; an approval or confirmation (declined is a denial);
 * `undefined` for a form not submitted (declined or cancelled) or an approval
 * cancelled: the request stays open. A string says what is wrong with an
 * answer that is not one.
 */
export function waitFormAnswer(
  request: AwaitableRequest,
  result: { readonly action: unknown; readonly content?: Readonly<Record<string, unknown>> },
): AwaitableResponse | string | undefined {
  if (request.kind === "form") {
    return result.action === "accept" ? ((result.content ?? {}) as AwaitableResponse) : undefined;
  }
  if (result.action === "decline") return { approved: false, reason: DECLINED_IN_CLIENT };
  if (result.action !== "accept") return undefined;
  const content = result.content ?? {};
  return approvalFormAnswer(request.kind === "approval" ? content : { ...content, input: undefined });
}

async function elicit(
  server: Server,
  request: AwaitableRequest,
  signal: AbortSignal,
  refused: string | undefined,
): Promise<AwaitableResponse | undefined> {
  let problem = refused;
  for (let attempt = 1; attempt <= MAX_FORM_ATTEMPTS; attempt++) {
    const result = await server.elicitInput({ mode: "form", ...waitForm(request, problem) }, { signal });
    const answer = waitFormAnswer(request, result);
    if (typeof answer !== "string") return answer;
    problem = answer;
  }
  return undefined;
}

export function waitingResult(process: AgentProcess, request: AwaitableRequest, why: string): CallToolResult {
  return {
    content: [
      {
        type: "text",
        text: `Process ${process.id} is waiting for request ${request.id} (${request.what}); ${why}. Request id: ${servedRequestId(process.id, request.id)}. A person answers with the tool '${RESPOND_TOOL_NAME}': {"requestId":"${servedRequestId(process.id, request.id)}","approve":true} (or "approve":false with a "reason"; a form's values as a JSON string in "values"), or in code with platform.respond("${process.id}", "${request.id}", …).`,
      },
    ],
    isError: true,
  };
}
