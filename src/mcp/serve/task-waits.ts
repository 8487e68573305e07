import type { CallToolResult, ElicitRequestFormParams } from "@modelcontextprotocol/server";
import { InvalidResponseError } from "../../errors/invalid-response-error.js";
import type { AgentPlatform } from "../../platform/agent-platform.js";
import type { AgentProcess } from "../../platform/agent-process.js";
import type { AwaitableRequest, AwaitableResponse } from "../../platform/awaitable.js";
import { communicatedResult } from "../../subagent/communicated-result.js";
import {
  APPROVAL_SCHEMA,
  approvalFormAnswer,
  CONFIRMATION_SCHEMA,
  DECLINED_IN_CLIENT,
} from "./elicit-waits.js";
import { type McpInputRequirement, McpServerCall } from "./mcp-server-call.js";
import type { TaskRoundOutcome } from "./served-tasks.js";

// A served agent running as a task that waits for a person: the task goes
// `input_required` with a form for the process's first open request; the
// client's answer (`tasks/update`) goes to `platform.respond`, and the same
// process runs on (it is not started again).

/** The state a task keeps while an agent process waits: which process, which request. */
interface WaitState {
  readonly wait: { readonly processId: string; readonly requestId: string; readonly problem?: string };
}

/** The wait a task's round state names, if any. */
export function waitStateOf(state: unknown): WaitState["wait"] | undefined {
  const wait = (state as Partial<WaitState> | undefined)?.wait;
  return wait && typeof wait.processId === "string" && typeof wait.requestId === "string" ? wait : undefined;
}

/** The form asking `request` of a person (`problem`: why they are asked again). */
function formOf(request: AwaitableRequest, problem: string | undefined): ElicitRequestFormParams {
  const again = problem ? `\n(Asked again: ${problem})` : "";
  if (request.kind === "form") {
    return {
      mode: "form",
      message: `${request.title}${again}`,
      requestedSchema: request.schema as ElicitRequestFormParams["requestedSchema"],
    };
  }
  const approval = request.kind === "approval";
  const shown = approval ? request.arguments : request.payload;
  return {
    mode: "form",
    message: `${request.message}\n${request.what}\n${JSON.stringify(shown, null, 2)}${again}`,
    requestedSchema: approval ? APPROVAL_SCHEMA : CONFIRMATION_SCHEMA,
  };
}

/** What a task asks while `process` waits on `request`: its form, keyed by the request's id. */
export function waitInput(
  process: AgentProcess,
  request: AwaitableRequest,
  problem?: string,
): McpInputRequirement {
  const { mode: _mode, ...params } = formOf(request, problem);
  return {
    inputRequests: { [request.id]: { method: "elicitation/create", params: { mode: "form", ...params } } },
    state: {
      wait: { processId: process.id, requestId: request.id, ...(problem ? { problem } : {}) },
    } satisfies WaitState,
  };
}

/**
 * Ends the task's round asking the client for `request` of the waiting
 * `process` (the task goes `input_required`); the result returned is replaced
 * by that question.
 */
export function askInTask(process: AgentProcess, request: AwaitableRequest): CallToolResult {
  const { inputRequests, state } = waitInput(process, request);
  McpServerCall.current()?.requireInput(inputRequests, state);
  return { content: [{ type: "text", text: `Process ${process.id} is waiting for request ${request.id}.` }] };
}

/** The process's answer from the client's elicitation result; a string when it is not one (asked again). */
function responseOf(request: AwaitableRequest, answer: unknown): AwaitableResponse | string {
  const result = answer as { action?: unknown; content?: Record<string, unknown> } | undefined;
  if (request.kind === "form") {
    return result?.action === "accept" && result.content ? result.content : "the form was not submitted";
  }
  if (result?.action !== "accept") return { approved: false, reason: DECLINED_IN_CLIENT };
  const content = result.content ?? {};
  return approvalFormAnswer(request.kind === "approval" ? content : { ...content, input: undefined });
}

/** How a task's round ends once `process` stopped (or waits again). */
export function outcomeOf(process: AgentProcess, problem?: string): TaskRoundOutcome {
  const [request] = process.awaiting;
  if (process.status === "waiting" && request) return { input: waitInput(process, request, problem) };
  if (process.status === "completed") {
    return { result: { content: [{ type: "text", text: communicatedResult(process.result) }] } };
  }
  const reason = process.statusReason ? `: ${process.statusReason}` : "";
  return { result: { content: [{ type: "text", text: `Agent ${process.status}${reason}` }], isError: true } };
}

/**
 * Answers the waiting process the task's state names with the client's
 * answer in `inputResponses`, and says how the round ends: the process's
 * next request, or its result. An answer that is not one (or that the
 * process refuses) asks the same request again, saying why.
 */
export async function resumeWait(
  platform: AgentPlatform,
  wait: NonNullable<ReturnType<typeof waitStateOf>>,
  inputResponses: Readonly<Record<string, unknown>> | undefined,
): Promise<TaskRoundOutcome> {
  const process = await platform.process(wait.processId);
  const request = process?.awaiting.find((each) => each.id === wait.requestId);
  if (!process || !request) {
    throw new Error(`Process ${wait.processId} no longer waits for request ${wait.requestId}.`);
  }
  const response = responseOf(request, inputResponses?.[wait.requestId]);
  if (typeof response === "string") return { input: waitInput(process, request, response) };
  try {
    return outcomeOf(await platform.respond(process.id, request.id, response, { respondent: "mcp" }));
  } catch (error) {
    if (!InvalidResponseError.isInstance(error)) throw error;
    return { input: waitInput(process, request, `the answer was refused: ${error.message}`) };
  }
}
