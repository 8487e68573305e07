// The SDK's client, reading a 2026-07-28 result without `resultType` as "complete".
// Only mcp-client-sdk.ts imports this file (it extends an SDK class: loading it loads the SDK).

import { Client, type JSONRPCResponse } from "@modelcontextprotocol/client";

/**
 * The SDK's `Client`, except that a result of a 2026-07-28 server that names
 * no `resultType` is read as `"complete"`: the specification's default, which
 * the SDK (2.4.0) does not apply (it refuses such a result). Results that name
 * a `resultType` pass as they are, and so does everything of an older server.
 */
export class CompleteByDefaultClient extends Client {
  protected override _onresponse(response: JSONRPCResponse): void {
    super._onresponse(this.getProtocolEra() === "modern" ? withResultType(response) : response);
  }
}

function withResultType(response: JSONRPCResponse): JSONRPCResponse {
  if (!("result" in response)) return response;
  const result = response.result as Record<string, unknown> | null;
  if (result === null || typeof result !== "object" || "resultType" in result) return response;
  return { ...response, result: { ...result, resultType: "complete" } } as JSONRPCResponse;
}
