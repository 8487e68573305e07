/** The parsed JSON-RPC answer to one request. */
export type JsonRpcAnswer = {
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
};

let nextId = 0;

/**
 * One raw MCP 2026-07-28 `tools/call` POST to `url` (no session, the
 * per-request `_meta` envelope, a client that declares elicitation), with
 * `params` beside the tool's name (arguments, inputResponses, requestState).
 * Resolves to the JSON-RPC answer, from a JSON body or the last event of an SSE one.
 */
export async function modernToolCall(
  url: string,
  tool: string,
  params: Record<string, unknown>,
): Promise<JsonRpcAnswer> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": tool,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++nextId,
      method: "tools/call",
      params: {
        name: tool,
        arguments: {},
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
        },
      },
    }),
  });
  const body = await response.text();
  const json = response.headers.get("content-type")?.includes("text/event-stream")
    ? (
        body
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .pop() ?? ""
      ).slice(6)
    : body;
  return JSON.parse(json) as JsonRpcAnswer;
}

/** The text blocks of a tool result, joined. */
export function resultText(result: unknown): string {
  return ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])
    .map((block) => block.text ?? "")
    .join("");
}
