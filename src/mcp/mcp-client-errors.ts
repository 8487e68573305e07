// Which failures of a request leave the connection to an MCP server usable.

import type { McpClientSdk } from "./load-mcp-sdk.js";

/**
 * Whether the connection stays after `error` failed a request: a JSON-RPC
 * error the server sent (`ProtocolError`), or an SDK refusal about the request
 * itself (a result that did not fit, too many `input_required` rounds, a method
 * the server's protocol revision lacks). Anything else — a dead child, a
 * refused or lost HTTP connection, an HTTP error status, a closed
 * connection — means "start afresh next time".
 */
export function staysConnected(sdk: McpClientSdk, error: unknown): boolean {
  if (error instanceof sdk.ProtocolError) return true;
  if (!(error instanceof sdk.SdkError) || error instanceof sdk.SdkHttpError) return false;
  const { SdkErrorCode } = sdk;
  switch (error.code) {
    case SdkErrorCode.RequestTimeout:
    case SdkErrorCode.InvalidResult:
    case SdkErrorCode.UnsupportedResultType:
    case SdkErrorCode.InputRequiredRoundsExceeded:
    case SdkErrorCode.ListPaginationExceeded:
    case SdkErrorCode.CapabilityNotSupported:
    case SdkErrorCode.MethodNotSupportedByProtocolVersion:
      return true;
    default:
      return false;
  }
}
