import type { CallToolResult } from "@modelcontextprotocol/server";
import { InvalidResponseError } from "../../errors/invalid-response-error.js";
import type { AgentPlatform } from "../../platform/agent-platform.js";
import type { AgentProcess } from "../../platform/agent-process.js";
import type { AwaitableResponse } from "../../platform/awaitable.js";
import { communicatedResult } from "../../subagent/communicated-result.js";
import type { ApprovalAnswer } from "../../tool/approval-authority.js";
import { elicitWaits, waitingResult } from "./elicit-waits.js";
import type { McpServerCallTarget } from "./mcp-server-call.js";
import { RESPOND_TOOL_NAME, type ServedApprovals } from "./served-approvals.js";

/** The respond tool as `tools/list` shows it. */
export const RESPOND_TOOL_LISTING = {
  name: RESPOND_TOOL_NAME,
  description:
    "Answers a request for a person's decision that a tool or agent of this server is waiting on (its result names the request id). Call it only with the person's own answer: approve (true or false), a reason when refusing, edited arguments as a JSON string in 'input', or a form's values as a JSON string in 'values'. An approved tool call then runs once and its result is returned.",
  inputSchema: {
    type: "object" as const,
    properties: {
      requestId: { type: "string", description: "The request id the waiting tool's result names" },
      approve: { type: "boolean", description: "true allows the call, false refuses it" },
      reason: { type: "string", description: "Why it is refused" },
      input: {
        type: "string",
        description: "Edited arguments as a JSON string (approvals only; leave out to keep them)",
      },
      values: { type: "string", description: "A form's values as a JSON string (form requests only)" },
    },
    required: ["requestId"],
    additionalProperties: false,
  },
};

/** What the respond tool needs besides its arguments. */
export interface RespondDependencies {
  readonly store: ServedApprovals;
  /** The platform running the waiting agent process `processId`, if this server knows one. */
  readonly platformOf: (processId: string) => AgentPlatform | undefined;
  /** Whether this server's client answers elicitations (an agent that waits again is then asked at once). */
  readonly elicitation: boolean;
}

const error = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

interface RespondArguments {
  readonly requestId: string;
  readonly approve: boolean | undefined;
  readonly reason: string | undefined;
  readonly input: string | undefined;
  readonly values: string | undefined;
}

/** The respond tool's arguments, checked; a message saying what is wrong otherwise. */
function readArguments(args: unknown): RespondArguments | string {
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return "the arguments must be an object";
  const record = args as Record<string, unknown>;
  const known = new Set(["requestId", "approve", "reason", "input", "values"]);
  const unknown = Object.keys(record).filter((key) => !known.has(key));
  if (unknown.length > 0) return `unknown argument(s): ${unknown.join(", ")}`;
  const { requestId, approve, reason, input, values } = record;
  if (typeof requestId !== "string" || requestId.length === 0 || requestId.length > 200)
    return "'requestId' must be the request id the waiting tool's result names";
  if (approve !== undefined && typeof approve !== "boolean") return "'approve' must be true or false";
  for (const [name, value] of [
    ["reason", reason],
    ["input", input],
    ["values", values],
  ] as const) {
    if (value !== undefined && typeof value !== "string") return `'${name}' must be a string`;
  }
  if (values === undefined && approve === undefined)
    return "give 'approve' (true or false), or a form's 'values'";
  if (values !== undefined && (approve !== undefined || input !== undefined))
    return "'values' answers a form: give it alone";
  if (approve === false && input !== undefined) return "'input' goes with approve: true";
  return {
    requestId,
    approve: approve as boolean | undefined,
    reason: reason as string | undefined,
    input: input as string | undefined,
    values: values as string | undefined,
  };
}

function parsedJson(text: string, what: string): { value: unknown } | string {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return `${what} must be JSON`;
  }
}

/**
 * The respond tool: answers a served tool's approval request (then serves
 * the original call again, which runs once with the approved or edited
 * arguments, and returns its result) or a waiting agent's request (then
 * returns how the run ended, or what it waits for next). A bad answer is an
 * `isError` result, and the request stays open.
 */
export async function respondToRequest(
  args: unknown,
  site: McpServerCallTarget,
  dependencies: RespondDependencies,
): Promise<CallToolResult> {
  const read = readArguments(args);
  if (typeof read === "string") return error(`${RESPOND_TOOL_NAME}: ${read}.`);
  const slash = read.requestId.lastIndexOf("/");
  if (slash > 0)
    return respondToAgent(
      read,
      read.requestId.slice(0, slash),
      read.requestId.slice(slash + 1),
      site,
      dependencies,
    );
  const { store } = dependencies;
  const entry = store.get(read.requestId);
  if (entry === undefined)
    return error(
      `${RESPOND_TOOL_NAME}: no open request '${read.requestId}' (answered already, expired, or not asked on this server).`,
    );
  if (read.values !== undefined)
    return error(`${RESPOND_TOOL_NAME}: request ${entry.id} is an approval: give 'approve'.`);
  let answer: ApprovalAnswer;
  if (read.approve === false) {
    answer = read.reason === undefined ? { approved: false } : { approved: false, reason: read.reason };
  } else if (read.input !== undefined && read.input.trim() !== "") {
    const edited = parsedJson(read.input, "'input' (the edited arguments)");
    if (typeof edited === "string")
      return error(`${RESPOND_TOOL_NAME}: ${edited}; request ${entry.id} stays open.`);
    answer = { approved: true, input: edited.value };
  } else {
    answer = { approved: true };
  }
  store.answer(entry, answer);
  try {
    // The gate finds the answer for exactly this call, validates an edit (a refused one re-opens the request), and runs it once.
    return await entry.rerun(site);
  } finally {
    store.settle(entry);
  }
}

async function respondToAgent(
  read: RespondArguments,
  processId: string,
  requestId: string,
  site: McpServerCallTarget,
  dependencies: RespondDependencies,
): Promise<CallToolResult> {
  const platform = dependencies.platformOf(processId);
  if (platform === undefined)
    return error(`${RESPOND_TOOL_NAME}: no agent process '${processId}' is known to this server.`);
  let response: AwaitableResponse;
  if (read.values !== undefined) {
    const values = parsedJson(read.values, "'values' (the form's values)");
    if (typeof values === "string") return error(`${RESPOND_TOOL_NAME}: ${values}; the request stays open.`);
    response = values.value as AwaitableResponse;
  } else if (read.approve === false) {
    response = read.reason === undefined ? { approved: false } : { approved: false, reason: read.reason };
  } else if (read.input !== undefined && read.input.trim() !== "") {
    const edited = parsedJson(read.input, "'input' (the edited arguments)");
    if (typeof edited === "string") return error(`${RESPOND_TOOL_NAME}: ${edited}; the request stays open.`);
    response = { approved: true, input: edited.value };
  } else {
    response = { approved: true };
  }
  let process: AgentProcess;
  try {
    process = await platform.respond(processId, requestId, response, { respondent: "mcp" });
  } catch (cause) {
    if (!InvalidResponseError.isInstance(cause)) throw cause;
    return error(`${RESPOND_TOOL_NAME}: ${cause.message} The request stays open.`);
  }
  if (process.status === "waiting") {
    if (dependencies.elicitation) return elicitWaits(site.server, platform, process, site.signal);
    const [next] = process.awaiting;
    if (next) return waitingResult(process, next, "it waits for another answer");
  }
  if (process.status === "completed")
    return { content: [{ type: "text", text: communicatedResult(process.result) }] };
  const reason = process.statusReason ? `: ${process.statusReason}` : "";
  return error(`Agent ${process.status}${reason}`);
}
