import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { InvalidResponseError } from "../../errors/invalid-response-error.js";
import type { AgentPlatform } from "../../platform/agent-platform.js";
import type { AgentProcess } from "../../platform/agent-process.js";
import type { AwaitableRequest } from "../../platform/awaitable.js";
import { communicatedResult } from "../../subagent/communicated-result.js";
import { waitForm, waitFormAnswer, waitingResult } from "./elicit-waits.js";
import type { McpNonceStore } from "./mcp-nonce-store.js";
import type { McpServerCall, McpServerCallTarget } from "./mcp-server-call.js";
import { NONCE_TTL_MS } from "./served-input-approvals.js";

// Served agents that wait for a person, on MCP 2026-07-28 with a client that
// declared elicitation: the call ends `input_required` with the form of the
// process's open request (approval, confirmation or form) and a signed state
// naming the process and the request. The client calls the tool again with
// the person's answer; whichever server process takes the retry (sharing the
// signing secret, and under `mcp-serve --redis` the Redis the process waits
// in) answers the request with `platform.respond` and returns how the run
// ended, or the next `input_required` when it waits again. The round's nonce
// is claimed in the server's nonce store first, so a replayed answer is never
// given twice; a replay is answered with the run as it is now.

/** The key of the wait's form in `inputRequests`. */
const WAIT_KEY = "wait";

/** How often a person is asked again after an answer that is not one (then the request is left for `respond_to_request`). */
const MAX_ATTEMPTS = 3;

/** What the signed state of a wait's round holds. */
interface WaitState {
  readonly wait: {
    readonly processId: string;
    readonly requestId: string;
    /** Single use: claimed in the server's nonce store when the answer is given. */
    readonly nonce: string;
    /** Which time this request is asked in a row (an answer that was not one asks it again). */
    readonly attempt: number;
  };
}

/** The wait a retried request answers (its signed state names one), if any. */
export function waitStateOf(site: McpServerCallTarget): WaitState["wait"] | undefined {
  const wait = (site.requestState as Partial<WaitState> | undefined)?.wait;
  return wait &&
    typeof wait.processId === "string" &&
    typeof wait.requestId === "string" &&
    typeof wait.nonce === "string" &&
    typeof wait.attempt === "number"
    ? wait
    : undefined;
}

/**
 * Ends `call` asking the client for `request` of the waiting `process`
 * (`input_required` with its form, and the state naming it); returns the
 * stand-in result the server replaces.
 */
export function askWaitByInput(
  call: McpServerCall,
  process: AgentProcess,
  request: AwaitableRequest,
  problem?: string,
  attempt = 1,
): CallToolResult {
  call.requireInput(
    { [WAIT_KEY]: { method: "elicitation/create", params: { mode: "form", ...waitForm(request, problem) } } },
    {
      wait: { processId: process.id, requestId: request.id, nonce: randomUUID(), attempt },
    } satisfies WaitState,
  );
  return waitingResult(process, request, "the client is asked for it");
}

/** How the run of `process` stands, as the call's answer: its result, its next request asked of the client, or how it ended. */
export function waitOutcome(call: McpServerCall, process: AgentProcess): CallToolResult {
  if (process.status === "waiting") {
    const [next] = process.awaiting;
    if (next) return askWaitByInput(call, process, next);
  }
  if (process.status === "completed")
    return { content: [{ type: "text", text: communicatedResult(process.result) }] };
  const reason = process.statusReason ? `: ${process.statusReason}` : "";
  return { content: [{ type: "text", text: `Agent ${process.status}${reason}` }], isError: true };
}

const error = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

/**
 * Answers the wait `state` names with the person's answer this retry carries,
 * once: a replayed answer (its nonce claimed already) or one to a request no
 * longer open is answered with the run as it is now; an answer that is not
 * one (or that the request refuses) is asked again, saying why; a form not
 * submitted leaves the process waiting, answerable with `respond_to_request`.
 */
export async function answerWaitFromRetry(
  call: McpServerCall,
  site: McpServerCallTarget,
  state: WaitState["wait"],
  platformOf: (processId: string) => AgentPlatform | undefined,
  nonces: McpNonceStore,
): Promise<CallToolResult> {
  const platform = platformOf(state.processId);
  if (platform === undefined) return error(`No agent process '${state.processId}' is known to this server.`);
  const process = await platform.process(state.processId);
  if (process === undefined)
    return error(`Agent process '${state.processId}' is gone (it ended long ago, or waits elsewhere).`);
  const request = process.awaiting.find((each) => each.id === state.requestId);
  if (process.status !== "waiting" || request === undefined) return waitOutcome(call, process);
  const given = site.inputResponses?.[WAIT_KEY] as
    | { action?: unknown; content?: Record<string, unknown> }
    | undefined;
  const answer =
    given !== undefined && typeof given === "object" && given !== null
      ? waitFormAnswer(request, {
          action: given.action,
          ...(given.content ? { content: given.content } : {}),
        })
      : "no answer came with the call";
  if (answer === undefined) return waitingResult(process, request, "the form was not submitted");
  const askAgain = (problem: string) =>
    state.attempt >= MAX_ATTEMPTS
      ? waitingResult(process, request, problem)
      : askWaitByInput(call, process, request, problem, state.attempt + 1);
  if (typeof answer === "string") return askAgain(`the answer was not one: ${answer}`);
  // A replay (to this process or another sharing the store) finds the nonce taken: the run as it is now.
  if (!(await nonces.claim(state.nonce, NONCE_TTL_MS))) {
    return waitOutcome(call, (await platform.process(state.processId)) ?? process);
  }
  let after: AgentProcess;
  try {
    after = await platform.respond(process.id, request.id, answer, { respondent: "mcp" });
  } catch (cause) {
    if (!InvalidResponseError.isInstance(cause)) throw cause;
    const now = await platform.process(process.id);
    // Answered meanwhile by someone else: the run as it is now; else the answer was refused.
    if (now === undefined || !now.awaiting.some((each) => each.id === request.id))
      return now === undefined ? error(cause.message) : waitOutcome(call, now);
    return askAgain(`the answer was refused: ${cause.message}`);
  }
  return waitOutcome(call, after);
}
