import { type Readable, Transform, type TransformCallback, type Writable } from "node:stream";
import type { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";
import { Logger } from "../../tool/logger.js";

/** The SDK's own limit on one stdio message: 10 MiB. */
export const DEFAULT_MCP_STDIO_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Options of {@link serveMcpOverStdio}. */
export interface ServeMcpOverStdioOptions {
  /** The largest message (one line) accepted, in bytes; a longer one is answered with a JSON-RPC error and skipped. @default 10485760 */
  readonly maxMessageBytes?: number;
  /** Where messages come from. @default process.stdin */
  readonly stdin?: Readable;
  /** Where answers go. @default process.stdout */
  readonly stdout?: Writable;
}

/** A server connected over stdio. */
export interface McpStdioEndpoint {
  /** Settles when the input ends or the transport closes. */
  readonly closed: Promise<void>;
  /** Closes the server and its transport. */
  close(): Promise<void>;
}

const NEWLINE = Buffer.from("\n");
const ID_AT_START = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
const ID_FIRST = /^\s*\{\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;

/** The request id a message starts with (as the SDK writes them), or `null`. */
function leadingId(head: string): number | string | null {
  const match = ID_AT_START.exec(head) ?? ID_FIRST.exec(head);
  if (!match?.[1]) return null;
  try {
    return JSON.parse(match[1]) as number | string;
  } catch {
    return null;
  }
}

/**
 * Passes whole lines of at most `maxBytes` on; a longer line is dropped as it
 * streams in (never buffered whole) and reported once through `onOversize`
 * with its first bytes.
 */
class LineSizeLimit extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onOversize: (head: Buffer) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (!this.skipping) {
        if (this.pendingBytes + piece.length > this.maxBytes) {
          this.onOversize(
            Buffer.concat([...this.pending.slice(0, 1), piece.subarray(0, 4096)]).subarray(0, 4096),
          );
          this.pending = [];
          this.pendingBytes = 0;
          this.skipping = true;
        } else if (piece.length > 0) {
          this.pending.push(piece);
          this.pendingBytes += piece.length;
        }
      }
      if (newline === -1) break;
      if (this.skipping) this.skipping = false;
      else this.push(Buffer.concat([...this.pending, NEWLINE]));
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
    }
    done();
  }
}

/**
 * Connects `server` over stdio, as `new StdioServerTransport()` does. Given a
 * function that makes servers (as `serveMcpOverHttp` takes), the connection
 * serves either MCP revision: a client opening with `server/discover` speaks
 * 2026-07-28 to a server made for it, one opening with `initialize` speaks
 * 2025-11-25; given one server, 2025-11-25 only. Either way, except
 * that a message over `maxMessageBytes` is answered with a JSON-RPC error
 * (`-32600`, with the request's id when it leads the message) and logged
 * through the library logger, and the server keeps serving: the SDK's
 * transport would close instead, and the process end without a word.
 */
export async function serveMcpOverStdio(
  server: McpServer | (() => McpServer),
  options: ServeMcpOverStdioOptions = {},
): Promise<McpStdioEndpoint> {
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MCP_STDIO_MAX_MESSAGE_BYTES;
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const limited = new LineSizeLimit(maxBytes, (head) => {
    const id = leadingId(head.toString("utf8"));
    const message = `Message too large: this server accepts messages of up to ${maxBytes} bytes.`;
    stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32600, message } })}\n`);
    Logger.current().warn(`MCP over stdio: refused a message over ${maxBytes} bytes; still serving.`, {
      maxMessageBytes: maxBytes,
      ...(id === null ? {} : { id }),
    });
  });
  stdin.pipe(limited);
  let settle: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    settle = resolve;
  });
  stdin.once("end", () => settle());
  stdin.once("close", () => settle());
  // Whole lines of at most maxBytes reach the SDK's buffer, so its own limit never trips.
  const transport = new StdioServerTransport(limited, stdout, { maxBufferSize: maxBytes + NEWLINE.length });
  const watchClose = (): void => {
    const onclose = transport.onclose;
    transport.onclose = () => {
      onclose?.();
      settle();
    };
  };
  if (typeof server === "function") {
    const handle = serveStdio(() => server(), { transport });
    // serveStdio starts the transport at once; wait for that, then chain onto its close handler.
    await Promise.resolve();
    watchClose();
    return {
      closed,
      close: async () => {
        stdin.unpipe(limited);
        await handle.close();
        settle();
      },
    };
  }
  await server.connect(transport);
  watchClose();
  return {
    closed,
    close: async () => {
      stdin.unpipe(limited);
      await server.close();
      settle();
    },
  };
}
