// The signed request state of MCP 2026-07-28 (a call that asks for input gets
// it back in the retry) and the call target each served request runs with.
import { randomBytes } from "node:crypto";
import {
  createRequestStateCodec,
  type InputRequests,
  inputRequired,
  type LoggingLevel,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { ConfigurationError } from "../../errors/configuration-error.js";
import type { McpServerCall, McpServerCallTarget } from "./mcp-server-call.js";
import { REQUEST_STATE_TTL_SECONDS } from "./served-input-approvals.js";

/** The signing secret of servers given none: one per process. */
export const PROCESS_SECRET = randomBytes(32).toString("base64url");
/** Signed state: the tool or prompt it was minted for, and the caller's state. */
export interface SignedState {
  readonly for: string;
  readonly state: unknown;
}
const codecs = new Map<string, RequestStateCodec<SignedState>>();

/** The codec for `secret` (one per secret; bound to the method and the authenticated client). */
export function requestStateCodec(secret: string): RequestStateCodec<SignedState> {
  let codec = codecs.get(secret);
  if (!codec) {
    if (Buffer.byteLength(secret) < 32) {
      throw new ConfigurationError("createMcpServer: requestStateSecret must be at least 32 bytes long.");
    }
    codec = createRequestStateCodec<SignedState>({
      key: secret,
      ttlSeconds: REQUEST_STATE_TTL_SECONDS,
      bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ""}`,
    });
    codecs.set(secret, codec);
  }
  return codec;
}

/** Whether the request came on MCP 2026-07-28 (it carries the per-request `_meta` envelope). */
export function isModernRequest(ctx: ServerContext): boolean {
  return ctx.mcpReq.envelope !== undefined && Object.keys(ctx.mcpReq.envelope).length > 0;
}

/** The log level a 2026-07-28 request opted into (`_meta` `io.modelcontextprotocol/logLevel`), if any. */
function requestLogLevel(ctx: ServerContext): LoggingLevel | undefined {
  return (ctx.mcpReq.envelope as { logLevel?: LoggingLevel } | undefined)?.logLevel;
}

/**
 * The answer to a call that asked for input (`McpServerCall.requireInput`):
 * `input_required` with the requests and the signed state; `undefined` when
 * the call asked for nothing.
 */
export async function inputRequiredOf<R>(
  call: McpServerCall,
  subject: string,
  codec: RequestStateCodec<SignedState>,
  ctx: ServerContext,
): Promise<R | undefined> {
  const required = call.inputRequirement;
  if (!required) return undefined;
  const requestState =
    required.state === undefined ? undefined : await codec.mint({ for: subject, state: required.state }, ctx);
  return inputRequired({
    inputRequests: required.inputRequests as InputRequests,
    ...(requestState === undefined ? {} : { requestState }),
  }) as unknown as R;
}

/** The verified state a retried request carries for `subject`; a state minted for another tool or prompt is refused. */
function stateFor(ctx: ServerContext, subject: string): unknown {
  const signed = ctx.mcpReq.requestState<SignedState>() as SignedState | string | undefined;
  if (signed === undefined || typeof signed === "string") return undefined;
  if (signed.for !== subject) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState");
  }
  return signed.state;
}

/** The call target of a request: where its notifications go, and what it carries from the client. */
export function callTarget(
  server: McpServer,
  ctx: ServerContext,
  subject: string,
  minimumLevel: () => LoggingLevel | undefined,
): McpServerCallTarget {
  const modern = isModernRequest(ctx);
  const inputResponses = ctx.mcpReq.inputResponses;
  const state = stateFor(ctx, subject);
  return {
    server: server.server,
    requestId: ctx.mcpReq.id,
    progressToken: ctx.mcpReq._meta?.progressToken,
    signal: ctx.mcpReq.signal,
    sendNotification: (notification) =>
      ctx.mcpReq.notify(notification as Parameters<typeof ctx.mcpReq.notify>[0]),
    minimumLevel: modern ? () => requestLogLevel(ctx) : minimumLevel,
    ...(ctx.http?.closeSSE ? { closeStream: ctx.http.closeSSE } : {}),
    modern,
    ...(inputResponses === undefined ? {} : { inputResponses }),
    ...(state === undefined ? {} : { requestState: state }),
  };
}
