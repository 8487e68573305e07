import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered, keys expire meanwhile. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** With `tls`: the CA certificate that signed the server's (for `NODE_EXTRA_CA_CERTS`). */
  readonly caFile?: string;
  /** Kills the server (SIGKILL) and starts a new one on the same port and folder: without persistence it comes back empty. */
  restart(options?: { readonly downMs?: number }): Promise<void>;
}

/** Options of {@link startRedis}. */
export interface TestRedisOptions {
  /** `aof` writes every command to an append-only file (fsync always), so a restart keeps the data. @default "none" */
  readonly persistence?: "none" | "aof";
  /** Require this password (`requirepass`); the URL carries it. @default undefined (no AUTH) */
  readonly password?: string;
  /** Serve TLS only (`rediss://`), with a certificate for 127.0.0.1 signed by a fresh CA (`caFile`). @default false */
  readonly tls?: boolean;
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
  const caFile = options.tls ? makeCertificates(dir) : undefined;
  const launch = async (port: number) => {
    const child: ChildProcess = spawn(
      REDIS_SERVER,
      [
        ...(caFile
          ? ["--port", "0", "--tls-port", String(port), "--tls-auth-clients", "no"]
          : ["--port", String(port)]),
        ...(caFile
          ? ["--tls-cert-file", join(dir, "server.pem"), "--tls-key-file", join(dir, "server.key")]
          : []),
        ...(caFile ? ["--tls-ca-cert-file", caFile] : []),
        "--bind",
        "127.0.0.1",
        ...persistence,
        "--dir",
        dir,
      ],
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
        ...(caFile ? { caFile } : {}),
        url: `${caFile ? "rediss" : "redis"}://${options.password === undefined ? "" : `:${options.password}@`}127.0.0.1:${port}`,
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

/** A CA and a server certificate for 127.0.0.1 in `dir` (openssl); returns the CA's file. */
function makeCertificates(dir: string): string {
  const openssl = (...args: string[]) => {
    const result = spawnSync("openssl", args, { cwd: dir, stdio: "pipe" });
    if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
  };
  writeFileSync(join(dir, "san.cnf"), "subjectAltName=IP:127.0.0.1\n");
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=embabel-test-ca",
  );
  openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "server.key",
    "-out",
    "server.csr",
    "-subj",
    "/CN=127.0.0.1",
  );
  openssl(
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    "-days",
    "2",
    "-extfile",
    "san.cnf",
  );
  return join(dir, "ca.pem");
}
