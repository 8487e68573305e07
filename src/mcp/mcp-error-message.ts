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
  // The SDK's HTTP errors carry the status only as `code`, and the body (often empty) as the message.
  const sdk = loadedMcpClientSdk();
  if (sdk && error instanceof sdk.StreamableHTTPError && typeof error.code === "number") {
    const reason = sdk.STATUS_CODES[error.code];
    const status = `HTTP ${error.code}${reason ? ` ${reason}` : ""}`;
    return error.message.includes(status)
      ? error.message
      : `${error.message.replace(/:\s*$/, "")} (${status})`;
  }
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error && !error.message.includes(cause.message)
      ? `${error.message} (${cause.message})`
      : error.message;
  }
  return String(error);
}
