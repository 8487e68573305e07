import { randomUUID } from "node:crypto";
import type { ApprovalAnswer, ApprovalCheck } from "../../tool/approval-authority.js";
import type { ToolResult } from "../../tool/tool-result.js";
import { APPROVAL_SCHEMA, approvalFormAnswer, DECLINED_IN_CLIENT } from "./elicit-waits.js";
import type { McpNonceStore } from "./mcp-nonce-store.js";
import type { McpServerCall, McpServerCallTarget } from "./mcp-server-call.js";
import { type PendingApproval, SERVED_TIMED_OUT } from "./served-approvals.js";

// Approvals of served calls on MCP 2026-07-28, where the server cannot send
// the client an elicitation during the call: the call ends `input_required`
// with the approval form, and a signed state naming exactly the call (its key
// and argument digest) and when the approval times out. The client calls
// again with the person's answer; whichever server process takes the retry
// (sharing the signing secret) finds the answer in it and runs the call once:
// the round's nonce is claimed in the server's nonce store first (shared
// between processes under `mcp-serve --redis`), so a replayed answer is asked anew.

/** The key of the approval form in `inputRequests`. */
const APPROVAL_KEY = "approval";

/** How long a signed request state stays valid (`createMcpServer`'s codec). */
export const REQUEST_STATE_TTL_SECONDS = 3_600;

/** How long a claimed nonce is kept: the state's lifetime and a margin for clocks apart. */
export const NONCE_TTL_MS = (REQUEST_STATE_TTL_SECONDS + 300) * 1_000;

/** What the signed state of an approval round holds. */
interface ApprovalState {
  readonly approval: {
    readonly callKey: string;
    readonly digest: string;
    /** When the approval's own `timeoutMs` runs out (epoch ms), if it has one. */
    readonly expiresAt?: number;
    /** Single use: claimed in the server's nonce store when the answer is taken. */
    readonly nonce: string;
  };
}

function approvalStateOf(site: McpServerCallTarget): ApprovalState["approval"] | undefined {
  const state = site.requestState as Partial<ApprovalState> | undefined;
  const approval = state?.approval;
  return approval && typeof approval.callKey === "string" && typeof approval.nonce === "string"
    ? approval
    : undefined;
}

/**
 * The person's answer to the approval of `check`, when this request is the
 * retry of the round that asked it (its signed state names this exact call);
 * `undefined` otherwise, or when the answer is not one (then it is asked again).
 */
export async function approvalFromRetry(
  site: McpServerCallTarget,
  check: ApprovalCheck,
  nonces: McpNonceStore,
): Promise<ApprovalAnswer | undefined> {
  const state = approvalStateOf(site);
  if (!state || state.callKey !== check.callKey || state.digest !== check.digest) return undefined;
  const response = site.inputResponses?.[APPROVAL_KEY] as
    | { action?: unknown; content?: Record<string, unknown> }
    | undefined;
  if (response === undefined || (response.action !== "accept" && response.action !== "decline"))
    return undefined;
  // A replay (to this process or another sharing the store) finds the nonce taken: asked anew.
  if (!(await nonces.claim(state.nonce, NONCE_TTL_MS))) return undefined;
  if (state.expiresAt !== undefined && state.expiresAt <= Date.now()) {
    return { approved: false, reason: SERVED_TIMED_OUT };
  }
  if (response.action === "decline") return { approved: false, reason: DECLINED_IN_CLIENT };
  const answer = approvalFormAnswer(response.content ?? {});
  return typeof answer === "string" ? undefined : answer;
}

/** Ends `call` asking for the approval `entry` (input_required with the approval form). */
export function askApprovalByInput(call: McpServerCall, entry: PendingApproval): ToolResult {
  const again = entry.problem ? `\n(Asked again: ${entry.problem})` : "";
  return call.requireInput(
    {
      [APPROVAL_KEY]: {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: `${entry.message}\nTool '${entry.toolName}' with ${JSON.stringify(entry.arguments, null, 2)}${again}`,
          requestedSchema: APPROVAL_SCHEMA,
        },
      },
    },
    {
      approval: {
        callKey: entry.callKey,
        digest: entry.digest,
        ...(entry.timed ? { expiresAt: entry.expiresAt } : {}),
        nonce: randomUUID(),
      },
    } satisfies ApprovalState,
  );
}
