// How a failure of an MCP server reads in the messages we make of it.

import { loadedMcpClientSdk } from "./load-mcp-sdk.js";

/** The SDK's `UnauthorizedError`: the provider was asked to redirect to the authorization server (or refused). */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof Error && error.constructor.name === "UnauthorizedError";
}

/** The first line of `text`, at most 300 characters: what an in-band failure message carries. */
export function oneLine(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** The message of an SDK or transport failure, with the HTTP status and the cause spelled out. */
export function mcpErrorMessage(error: unknown): string {
  // The SDK's HTTP errors carry the status in `status`, and the body (often empty) in the message.
  const sdk = loadedMcpClientSdk();
  if (sdk && error instanceof sdk.SdkHttpError) {
    const reason = sdk.STATUS_CODES[error.status];
    const status = `HTTP ${error.status}${reason ? ` ${reason}` : ""}`;
    return error.message.includes(status)
      ? error.message
      : `${error.message.replace(/:\s*$/, "")} (${status})`;
  }
  if (error instanceof Error) {
    // The causes that add something, a few levels down (a failed probe → "fetch failed" → ECONNREFUSED).
    let message = error.message;
    let cause = (error as Error & { cause?: unknown }).cause;
    for (let depth = 0; depth < 3 && cause instanceof Error; depth++) {
      if (!message.includes(cause.message)) message = `${message} (${cause.message})`;
      cause = (cause as Error & { cause?: unknown }).cause;
    }
    return message;
  }
  return String(error);
}
