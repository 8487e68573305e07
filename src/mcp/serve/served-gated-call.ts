// A served tool call through the approval gate, and the agents left waiting by served calls.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { ProtocolError } from "@modelcontextprotocol/server";
import { AwaitingResponse } from "../../errors/awaiting-response.js";
import { gateToolCall, inputDigest } from "../../loop/tool-gate.js";
import type { AgentPlatform } from "../../platform/agent-platform.js";
import type { AgentProcess } from "../../platform/agent-process.js";
import type { Tool } from "../../tool/tool.js";
import type { ToolCallContext } from "../../tool/tool-call-context.js";
import { elicitApproval, elicitWaits, waitingProcessOf, waitingResult } from "./elicit-waits.js";
import type { McpNonceStore } from "./mcp-nonce-store.js";
import { McpServerCall, type McpServerCallTarget } from "./mcp-server-call.js";
import {
  type PendingApproval,
  pendingApprovalResult,
  servedApprovals,
  servedAuthority,
} from "./served-approvals.js";
import { approvalFromRetry, askApprovalByInput } from "./served-input-approvals.js";
import { answerWaitFromRetry, askWaitByInput, waitStateOf } from "./served-input-waits.js";
import { servedToolResult } from "./served-tool-result.js";
import { askInTask } from "./task-waits.js";

/** Waiting agent processes started through served calls, by id (for the respond tool); the oldest are forgotten. */
export const waitingPlatforms = new Map<string, AgentPlatform>();
const MAX_REMEMBERED_PROCESSES = 1_000;

/** Remembers that `process` waits on `platform` (the most recent last). */
export function remember(process: AgentProcess, platform: AgentPlatform): void {
  waitingPlatforms.delete(process.id);
  waitingPlatforms.set(process.id, platform);
  while (waitingPlatforms.size > MAX_REMEMBERED_PROCESSES) {
    waitingPlatforms.delete(waitingPlatforms.keys().next().value as string);
  }
}

/** How served calls keep track of agents that wait, and of answered rounds. */
export interface ServedWaits {
  readonly nonces: McpNonceStore;
  /** The platform running the waiting agent process `processId`, if this server knows one. */
  readonly platformOf: (processId: string) => AgentPlatform | undefined;
  readonly remember: (process: AgentProcess, platform: AgentPlatform) => void;
}

/**
 * One served call through the approval gate: arguments validated (a bad one
 * is an `isError` result with the gate's message), approval asked of the
 * client by elicitation when it can, else a request opened for the respond
 * tool (an `isError` result naming it); then the tool runs with exactly the
 * approved input. An agent that waits is answered the same way; on MCP
 * 2026-07-28 the retry carrying the answer to its wait answers it (and skips the gate).
 */
export async function serveGated(
  tool: Tool,
  args: Record<string, unknown>,
  context: ToolCallContext,
  site: McpServerCallTarget,
  serveAgain: (site: McpServerCallTarget) => Promise<CallToolResult>,
  waits: ServedWaits,
): Promise<CallToolResult> {
  const input = JSON.stringify(args);
  const toolName = tool.definition.name;
  // MCP 2026-07-28 has no server→client requests: its clients answer approvals with the respond tool.
  const elicitation = !site.modern && Boolean(site.server.getClientCapabilities()?.elicitation);
  const opened: PendingApproval[] = [];
  // On 2026-07-28 a client with elicitation is asked in the result (input_required), and answers in its retry.
  const askByInput = site.modern && Boolean(site.server.getClientCapabilities()?.elicitation);
  const approvals = servedAuthority(
    servedApprovals,
    elicitation
      ? (check) => elicitApproval(site.server, check)
      : askByInput
        ? (check) => approvalFromRetry(site, check, waits.nonces)
        : undefined,
    serveAgain,
    opened,
  );
  const call = McpServerCall.current();
  // The client's cancellation stops the call while it runs; an agent run left waiting must outlive the
  // request (on 2026-07-28, or a stateless POST, the request's signal aborts once it is answered).
  const during = new AbortController();
  const cancel = () => during.abort(site.signal.reason);
  if (site.signal.aborted) cancel();
  else site.signal.addEventListener("abort", cancel, { once: true });
  try {
    // The retry of a round that asked for a waiting agent's answer (its signed state names the wait).
    const wait = site.modern && call ? waitStateOf(site) : undefined;
    if (wait && call) return await answerWaitFromRetry(call, site, wait, waits.platformOf, waits.nonces);
    const outcome = await gateToolCall(
      { tool, toolName, input, callKey: `mcp:${toolName}:${inputDigest(input)}` },
      { context, signal: during.signal, approvals },
    );
    if (outcome.kind === "pending") {
      const [first] = opened;
      // Replaced on the way out by input_required with the approval form (the call's requirement).
      if (askByInput && first && call) askApprovalByInput(call, first);
      return pendingApprovalResult(opened);
    }
    if (outcome.kind === "refused")
      return { content: [{ type: "text", text: outcome.message }], isError: true };
    const result = outcome.result;
    // An agent waiting for a person: a client that supports elicitation is asked, and the run goes on.
    const waiting = waitingProcessOf(result);
    const platform = waiting?.platform;
    if (waiting && platform) {
      waits.remember(waiting, platform);
      if (elicitation) return await elicitWaits(site.server, platform, waiting, site.signal);
      const [request] = waiting.awaiting;
      // In a task the client is asked by the task (input_required) and answers with tasks/update.
      if (request && site.inTask && site.server.getClientCapabilities()?.elicitation)
        return askInTask(waiting, request);
      // On 2026-07-28: input_required with the request's form, and a state naming the process.
      if (askByInput && request && call) return askWaitByInput(call, waiting, request);
      if (request) return waitingResult(waiting, request, "nobody could be asked during the call");
    }
    return servedToolResult(result);
  } catch (error) {
    // A tool asking for a JSON-RPC error (the SDK's ProtocolError) gets one; other throws are tool errors.
    if (error instanceof ProtocolError) throw error;
    // A shortcut through a facade stopped at an inner tool needing approval.
    if (AwaitingResponse.isInstance(error) && opened.length > 0) return pendingApprovalResult(opened);
    return {
      content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
      isError: true,
    };
  } finally {
    site.signal.removeEventListener("abort", cancel);
  }
}
