import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import { AgentProcess } from "../platform/agent-process.js";
import type { AwaitableRequest, AwaitableResponse } from "../platform/awaitable.js";
import { communicatedResult } from "../subagent/communicated-result.js";
import type { ToolResult } from "../tool/tool-result.js";

/** The reason given when the person declines an approval in their MCP client. */
export const DECLINED_IN_CLIENT = "declined in the MCP client";

const APPROVAL_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    approve: { type: "boolean", title: "Approve", description: "Allow it" },
    reason: { type: "string", title: "Reason", description: "Why not (when denied)" },
  },
  required: ["approve"],
};

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
  while (current.status === "waiting") {
    const [request] = current.awaiting;
    if (request === undefined) break;
    let response: AwaitableResponse | undefined;
    try {
      response = await elicit(server, request, signal);
    } catch (error) {
      return waitingResult(current, request, `the elicitation failed: ${(error as Error).message}`);
    }
    if (response === undefined) return waitingResult(current, request, "the form was not submitted");
    current = await platform.respond(current.id, request.id, response, { respondent: "mcp" });
  }
  if (current.status === "completed")
    return { content: [{ type: "text", text: communicatedResult(current.result) }] };
  const reason = current.statusReason ? `: ${current.statusReason}` : "";
  return { content: [{ type: "text", text: `Agent ${current.status}${reason}` }], isError: true };
}

async function elicit(
  server: Server,
  request: AwaitableRequest,
  signal: AbortSignal,
): Promise<AwaitableResponse | undefined> {
  if (request.kind === "form") {
    const result = await server.elicitInput(
      {
        mode: "form",
        message: request.title,
        requestedSchema: request.schema as ElicitRequestFormParams["requestedSchema"],
      },
      { signal },
    );
    return result.action === "accept" ? ((result.content ?? {}) as AwaitableResponse) : undefined;
  }
  const shown = request.kind === "approval" ? request.arguments : request.payload;
  const result = await server.elicitInput(
    {
      mode: "form",
      message: `${request.message}\n${request.what}\n${JSON.stringify(shown, null, 2)}`,
      requestedSchema: APPROVAL_SCHEMA,
    },
    { signal },
  );
  if (result.action !== "accept") return { approved: false, reason: DECLINED_IN_CLIENT };
  const content = result.content ?? {};
  if (content.approve === true) return { approved: true };
  const reason =
    typeof content.reason === "string" && content.reason.trim() ? content.reason.trim() : undefined;
  return reason === undefined ? { approved: false } : { approved: false, reason };
}

function waitingResult(process: AgentProcess, request: AwaitableRequest, why: string): CallToolResult {
  return {
    content: [
      {
        type: "text",
        text: `Process ${process.id} is waiting for request ${request.id} (${request.what}); ${why}. Answer it later with platform.respond("${process.id}", "${request.id}", …).`,
      },
    ],
    isError: true,
  };
}
