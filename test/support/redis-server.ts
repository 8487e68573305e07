import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { available, REDIS } from "./system-component.js";

/** The Debian package's server (`.ci/run` installs it when missing). */
export const REDIS_SERVER = REDIS.path;

/** Whether a Redis server can be started here (missing: skipped with a line naming the package; under CI=true an error). */
export const hasRedisServer = available(REDIS);

/** A Redis server a test started. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
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

/** Starts redis-server on a free 127.0.0.1 port in a temp folder, with no persistence. */
export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "embabel-redis-"));
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child: ChildProcess = spawn(
      REDIS_SERVER,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: "ignore" },
    );
    let exited = false;
    child.once("exit", () => {
      exited = true;
    });
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline && !(await canConnect(port))) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (!exited && (await canConnect(port))) {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: async () => {
          if (!exited) {
            const gone = new Promise((resolve) => child.once("exit", resolve));
            child.kill("SIGKILL");
            await gone;
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    child.kill("SIGKILL");
    if (attempt >= 3) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start on 127.0.0.1 (tried ${attempt + 1} ports)`);
    }
  }
}
