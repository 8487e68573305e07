import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The Debian package's server (`.ci/run` installs it when missing). */
export const REDIS_SERVER = "/usr/bin/redis-server";

/** Whether a Redis server can be started here. */
export const hasRedisServer = existsSync(REDIS_SERVER);

/** A Redis server a test started. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered, keys expire meanwhile. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Kills the server (SIGKILL) and starts a new one on the same port and folder: without persistence it comes back empty. */
  restart(options?: { readonly downMs?: number }): Promise<void>;
}

/** Options of {@link startRedis}. */
export interface TestRedisOptions {
  /** `aof` writes every command to an append-only file (fsync always), so a restart keeps the data. @default "none" */
  readonly persistence?: "none" | "aof";
  /** Require this password (`requirepass`); the URL carries it. @default undefined (no AUTH) */
  readonly password?: string;
}

/** A free TCP port on 127.0.0.1 (redis-server cannot listen on port 0, so take one the OS just handed out). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
}

/** Starts redis-server on a free 127.0.0.1 port in a temp folder, with no persistence unless asked. */
export async function startRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "embabel-redis-"));
  const persistence =
    options.persistence === "aof"
      ? ["--save", "", "--appendonly", "yes", "--appendfsync", "always"]
      : ["--save", "", "--appendonly", "no"];
  if (options.password !== undefined) persistence.push("--requirepass", options.password);
  const launch = async (port: number) => {
    const child: ChildProcess = spawn(
      REDIS_SERVER,
      ["--port", String(port), "--bind", "127.0.0.1", ...persistence, "--dir", dir],
      { stdio: "ignore" },
    );
    const state = { child, exited: false };
    child.once("exit", () => {
      state.exited = true;
    });
    const deadline = Date.now() + 10_000;
    while (!state.exited && Date.now() < deadline && !(await canConnect(port))) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const up = !state.exited && (await canConnect(port));
    if (!up) child.kill("SIGKILL");
    return up ? state : undefined;
  };
  const kill = async (state: { child: ChildProcess; exited: boolean }) => {
    if (state.exited) return;
    const gone = new Promise((resolve) => state.child.once("exit", resolve));
    state.child.kill("SIGKILL");
    await gone;
  };
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    let server = await launch(port);
    if (server) {
      return {
        url: `redis://${options.password === undefined ? "" : `:${options.password}@`}127.0.0.1:${port}`,
        port,
        stop: async () => {
          if (server) await kill(server);
          rmSync(dir, { recursive: true, force: true });
        },
        pause: () => server?.child.kill("SIGSTOP"),
        resume: () => server?.child.kill("SIGCONT"),
        restart: async ({ downMs = 0 } = {}) => {
          if (server) await kill(server);
          await new Promise((resolve) => setTimeout(resolve, downMs));
          server = await launch(port);
          if (!server) throw new Error(`redis-server did not start again on 127.0.0.1:${port}`);
        },
      };
    }
    if (attempt >= 3) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start on 127.0.0.1 (tried ${attempt + 1} ports)`);
    }
  }
}
