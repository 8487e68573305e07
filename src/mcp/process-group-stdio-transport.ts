import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { PassThrough } from "node:stream";
import {
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { signalGroup } from "./signal-group.js";
import { MAX_MCP_MESSAGE_BYTES } from "./size-capped-fetch.js";

/** How long `close()` waits for the server to exit once its stdin is closed, and again after SIGTERM. */
export const CLOSE_GRACE_MS = 1_000;

/**
 * The parent-death watchdog (POSIX `sh`): starts a watcher, then becomes the
 * server (`exec`, so the server keeps the pid and the pipes). Once the host
 * pid (`$1`) is gone, the watcher SIGKILLs the whole process group: the
 * server and all it started. Nothing in a process can catch its own SIGKILL;
 * this covers it. The watcher polls once a second, holds none of the
 * server's pipes, and ends when the server does.
 */
const WATCHDOG = [
  "host=$1; shift",
  '( while kill -0 "$host" 2>/dev/null && kill -0 $$ 2>/dev/null; do sleep 1; done; kill -0 "$host" 2>/dev/null || kill -KILL 0 ) </dev/null >/dev/null 2>&1 &',
  'exec "$@"',
].join("\n");

/** Whether `command` names an executable file (directly, or found on `path`). */
function executable(command: string, path: string | undefined): boolean {
  const candidates = command.includes("/")
    ? [command]
    : (path ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((folder) => join(folder, command));
  return candidates.some((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The program and arguments that start the server: behind the watchdog on
 * POSIX when `/bin/sh` is there and the command exists (a missing command is
 * spawned as is, so that it fails as `ENOENT`); the command itself on Windows.
 */
function launch(options: ProcessGroupStdioOptions): [string, string[]] {
  const direct: [string, string[]] = [options.command, [...options.args]];
  if (process.platform === "win32" || !executable("/bin/sh", undefined)) return direct;
  const path = options.env.PATH ?? process.env.PATH;
  const command =
    options.cwd !== undefined && options.command.includes("/") && !isAbsolute(options.command)
      ? join(options.cwd, options.command)
      : options.command;
  if (!executable(command, path)) return direct;
  return [
    "/bin/sh",
    ["-c", WATCHDOG, "embabel-ts-mcp-watchdog", String(process.pid), options.command, ...options.args],
  ];
}

/** What {@link ProcessGroupStdioTransport} starts. */
export interface ProcessGroupStdioOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** The whole environment of the server. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/**
 * The MCP stdio client transport, with the server in a process group of its
 * own (spawned `detached`, on POSIX). The SDK's `StdioClientTransport` signals
 * only the process it started, so an `npx` or `sh -c` wrapper's real server,
 * and anything it started, outlived `close()`, and kept this process's pipes
 * (and so Node) open. `close()` here does what the MCP specification
 * describes (close the server's stdin, wait, SIGTERM, then SIGKILL) to the
 * whole group, and then lets go of the pipes whatever is still running.
 * Messages are framed by the SDK's own `ReadBuffer` and `serializeMessage`;
 * one message may be at most {@link MAX_MCP_MESSAGE_BYTES} (as over HTTP): a
 * server that sends a longer line (or never ends one) is stopped, and the
 * requests it had not answered fail saying so.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, readable from construction on (so no early line is lost). */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private readonly readBuffer: ReadBuffer;
  /** The ids of the requests sent and not yet answered: what an oversized message fails. */
  private readonly unanswered = new Set<string | number>();
  /** Set once a message was too large: nothing more of the stream is read. */
  private overflow = false;
  private exited: Promise<void> | undefined;

  constructor(
    private readonly options: ProcessGroupStdioOptions,
    private readonly maxMessageBytes = MAX_MCP_MESSAGE_BYTES,
  ) {
    this.readBuffer = new ReadBuffer({ maxBufferSize: maxMessageBytes });
  }

  /** Whether the server was stopped for a message over the size cap (the connection is unusable from then on). */
  get overflowed(): boolean {
    return this.overflow;
  }

  /** Why the server was stopped for a message over the size cap, if it was. */
  get overflowMessage(): string | undefined {
    return this.overflow ? overflowText(this.maxMessageBytes) : undefined;
  }

  /** The server's pid (which is also its process group id), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error("ProcessGroupStdioTransport already started.");
    return new Promise((resolve, reject) => {
      const [program, args] = launch(this.options);
      const child = spawn(program, args, {
        env: { ...this.options.env },
        stdio: ["pipe", "pipe", "pipe"],
        detached: process.platform !== "win32",
        windowsHide: true,
        ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
      });
      this.child = child;
      this.exited = new Promise((done) => child.once("exit", () => done()));
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => resolve());
      child.once("close", () => {
        if (this.child === child) this.child = undefined;
        // The server is gone (it exited or crashed): what it started must not stay behind.
        signalGroup(child, "SIGTERM");
        this.onclose?.();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => {
        if (this.overflow) return;
        try {
          this.readBuffer.append(chunk);
        } catch {
          this.tooLarge();
          return;
        }
        try {
          this.readMessages();
        } catch (error) {
          this.onerror?.(error as Error);
          void this.close();
        }
      });
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) {
        reject(new Error("Not connected"));
        return;
      }
      if ("method" in message && "id" in message) this.unanswered.add(message.id);
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /**
   * Ends the server: closes its stdin and waits up to {@link CLOSE_GRACE_MS}
   * for it to exit, then sends SIGTERM to its whole process group, waits
   * again, and sends SIGKILL to whatever of the group is left. The pipes are
   * let go of in every case, so nothing the server started keeps Node alive.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    const exited = this.exited ?? Promise.resolve();
    try {
      child.stdin?.end();
    } catch {
      // the pipe is gone already
    }
    if (child.exitCode === null && child.signalCode === null) await within(exited, CLOSE_GRACE_MS);
    // Even when the server itself exited, what it started may still run in its group.
    if (signalGroup(child, "SIGTERM")) {
      await groupGone(child, CLOSE_GRACE_MS);
      signalGroup(child, "SIGKILL");
    }
    this.child = undefined;
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
    this.readBuffer.clear();
    this.unanswered.clear();
    // `close` waits for the pipes; a grandchild holding them must not delay onclose.
    if (child.listenerCount("close") > 0) child.removeAllListeners("close");
    this.onclose?.();
  }

  private readMessages(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      if (!("method" in message) && "id" in message && message.id !== undefined)
        this.unanswered.delete(message.id);
      this.onmessage?.(message);
    }
  }

  /**
   * The server sent more than {@link maxMessageBytes} without a newline: each
   * request it has not answered gets an error saying so, and the server is
   * stopped (its stream can't be read on from the middle of a message).
   */
  private tooLarge(): void {
    this.overflow = true;
    const text = overflowText(this.maxMessageBytes);
    const ids = [...this.unanswered];
    this.unanswered.clear();
    for (const id of ids) {
      this.onmessage?.({ jsonrpc: "2.0", id, error: { code: -32603, message: text } });
    }
    this.onerror?.(new Error(text));
    void this.close();
  }
}

/** Resolves once no process of `child`'s group is left, or after `ms` (polled: a group has no exit event). */
async function groupGone(child: { readonly pid?: number | undefined }, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (signalGroup(child, 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Waits for `promise`, or `ms` at most. The timer keeps Node running (it is
 * short): a closing program must not end with the close still pending.
 */
function within(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

function overflowText(maxMessageBytes: number): string {
  return `the MCP server sent a message over ${maxMessageBytes} bytes on its stdout; it was not read, and the server was stopped`;
}
