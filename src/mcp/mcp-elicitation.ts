import { createHash } from "node:crypto";
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/client";
import { AwaitingResponse, type PendingRequest } from "../errors/awaiting-response.js";
import { AgentProcess } from "../platform/agent-process.js";
import type { ProcessWaits } from "../platform/process-waits.js";

/** A server's `elicitation/create` (form mode): the message to show and the fields to ask for. */
export type McpElicitation = ElicitRequestFormParams;

/** The answer to an elicitation: `accept` with the values (defaults from the schema are filled in), `decline` or `cancel`. */
export type McpElicitationResult = ElicitResult;

/** What an elicitation handler is told besides the request. */
export interface McpElicitationContext {
  /** The server that asks, as configured. */
  readonly server: string;
  /** Aborted when the server cancels the request or the connection ends. */
  readonly signal: AbortSignal;
}

/**
 * Answers an MCP server's request for input from the user (`elicitation/create`):
 * show `request.message` and a form of `request.requestedSchema`, and return the values.
 */
export type McpElicitationHandler = (
  request: McpElicitation,
  context: McpElicitationContext,
) => McpElicitationResult | Promise<McpElicitationResult>;

/** A tool call in flight in an agent process: where an elicitation without a handler is turned into a request of the process. */
export interface ElicitationScope {
  readonly process: AgentProcess;
  readonly waits: ProcessWaits;
  /** The form request opened for an elicitation during this call; the call then ends waiting for it. */
  asked?: PendingRequest;
  /** How many elicitations of each identity this call has seen (the same question asked twice gets two keys). */
  seen?: Map<string, number>;
}

/**
 * The key of an elicitation's form request: the server, what it asks, and
 * which time in this call it asks it. Not its order among other servers'
 * requests: calls in parallel may elicit in another order on resume, and each
 * answer must still reach the server that asked.
 */
function elicitationKey(scope: ElicitationScope, server: string, request: McpElicitation): string {
  const identity = `mcp:${server}:${createHash("sha256")
    .update(JSON.stringify([request.message, request.requestedSchema]))
    .digest("hex")
    .slice(0, 16)}`;
  scope.seen ??= new Map();
  const occurrence = scope.seen.get(identity) ?? 0;
  scope.seen.set(identity, occurrence + 1);
  return `${identity}:${occurrence}`;
}

/**
 * Whether `request` asks for a yes or no: a required boolean `approve`, and
 * otherwise only optional text fields (a reason, edited arguments), as a
 * served embabel-ts tool or agent asks for a person's approval. Such a form
 * becomes a confirmation of the process (approve or deny, with a reason).
 */
function isApprovalForm(request: McpElicitation): boolean {
  const schema = request.requestedSchema as {
    properties?: Record<string, { type?: unknown }>;
    required?: readonly string[];
  };
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  if (properties.approve?.type !== "boolean" || !required.includes("approve")) return false;
  return Object.entries(properties).every(
    ([name, property]) => name === "approve" || (property.type === "string" && !required.includes(name)),
  );
}

/** The form's content for the answer to a confirmation: approve, and the reason of a denial. */
function approvalContent(answer: Readonly<Record<string, unknown>>): ElicitResult["content"] {
  if (answer.approved === true) return { approve: true };
  return typeof answer.reason === "string" ? { approve: false, reason: answer.reason } : { approve: false };
}

/** The scope of a call made now: the current agent process's waits, if the call runs in one. */
export function elicitationScope(): ElicitationScope | undefined {
  const process = AgentProcess.current();
  return process === undefined ? undefined : { process, waits: process.waitsForAwaitables() };
}

/** Throws the wait for the form an elicitation during the call of `scope` opened, if it did. */
export function throwIfAsked(scope: ElicitationScope): void {
  if (scope.asked !== undefined) throw new AwaitingResponse([scope.asked]);
}

/**
 * Answers an elicitation of `server`: by `handler` when there is one; else,
 * when exactly one call into the server runs in an agent process, as a form
 * request of that process (see docs/mcp.md, "Elicitation"): the answer given
 * with `platform.respond` is sent when the call is made again on resume, and
 * until then the server is told `cancel`; else `decline`. A form that only
 * asks to approve (a served embabel-ts approval) is a confirmation request
 * instead, answered `{ approved, reason }` (the terminal's approve/deny, the
 * studio's buttons) and sent as the form's `approve` and `reason`.
 */
export async function answerElicitation(
  request: McpElicitation,
  context: McpElicitationContext,
  handler: McpElicitationHandler | undefined,
  scopes: ReadonlySet<ElicitationScope>,
): Promise<McpElicitationResult> {
  if (handler !== undefined) {
    const result = await handler(request, context);
    // Defaults are applied by the SDK to the content of an accepted form; an accept without content gets them all.
    return result.action === "accept" ? { ...result, content: { ...(result.content ?? {}) } } : result;
  }
  if (scopes.size !== 1) return { action: "decline" };
  const [scope] = scopes as Iterable<ElicitationScope>;
  if (scope === undefined || scope.asked !== undefined) return { action: "decline" };
  const { index } = scope.waits.enter();
  const key = elicitationKey(scope, context.server, request);
  const answer = scope.waits.answerOf(key);
  const confirmation = isApprovalForm(request);
  if (answer !== undefined) {
    if ((answer as { timedOut?: unknown }).timedOut === true) return { action: "cancel" };
    if (confirmation)
      return { action: "accept", content: approvalContent(answer as Readonly<Record<string, unknown>>) };
    return {
      action: "accept",
      content: { ...(answer as Record<string, unknown>) } as ElicitResult["content"],
    };
  }
  scope.waits.record(index, { kind: "awaitable" });
  const title = `MCP server '${context.server}' asks: ${request.message}`;
  scope.asked = confirmation
    ? { kind: "confirmation", key, message: title, payload: { server: context.server } }
    : { kind: "form", key, title, schema: request.requestedSchema as Readonly<Record<string, unknown>> };
  return { action: "cancel" };
}
