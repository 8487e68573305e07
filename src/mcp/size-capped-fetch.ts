import type { GuardedFetch } from "./oauth-fetch-guard.js";

/** The largest message an HTTP MCP server may send this client (one JSON body, or one event of a stream). */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/** The JSON-RPC id of the request `init` posts, if it is one. */
function requestId(init: RequestInit | undefined): string | number | undefined {
  if (init?.method !== "POST" || typeof init.body !== "string") return undefined;
  try {
    const id = (JSON.parse(init.body) as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `fetch` for an HTTP MCP transport that stops reading a response once one
 * message of it passes `maxBytes`: a JSON body as a whole (its read fails),
 * an event stream event by event (an event is held until it is complete; an
 * oversized one is replaced by a JSON-RPC error answering the request, and
 * the stream ends). A long stream of small messages is fine; one huge
 * resource, prompt or tool result from a hostile server is an error instead
 * of a filled heap.
 */
export function sizeCappedFetch(
  base: GuardedFetch | undefined,
  maxBytes = MAX_MCP_MESSAGE_BYTES,
): GuardedFetch {
  const send: GuardedFetch = base ?? ((url, init) => fetch(url, init));
  return async (url, init) => {
    const response = await send(url, init);
    if (!response.body) return response;
    const message = `the MCP server sent a message over ${maxBytes} bytes; it was not read`;
    const stream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const id = stream ? requestId(init) : undefined;
    let size = 0;
    let held: Uint8Array[] = [];
    let previous = 0;
    const capped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (!stream) {
            size += chunk.length;
            if (size > maxBytes) controller.error(new Error(message));
            else controller.enqueue(chunk);
            return;
          }
          let start = 0;
          for (let index = 0; index < chunk.length; index++) {
            const byte = chunk[index] as number;
            if (byte === 13) continue;
            const boundary = byte === 10 && previous === 10;
            previous = byte;
            if (!boundary) continue;
            for (const part of held) controller.enqueue(part);
            controller.enqueue(chunk.subarray(start, index + 1));
            held = [];
            size = 0;
            start = index + 1;
          }
          if (start < chunk.length) {
            held.push(chunk.subarray(start));
            size += chunk.length - start;
          }
          if (size > maxBytes) {
            held = [];
            if (id !== undefined) {
              const error = { jsonrpc: "2.0", id, error: { code: -32600, message } };
              controller.enqueue(
                new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(error)}\n\n`),
              );
            }
            controller.terminate();
          }
        },
        flush(controller) {
          for (const part of held) controller.enqueue(part);
        },
      }),
    );
    return new Response(capped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
