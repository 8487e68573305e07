import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach } from "vitest";
import { Logger } from "../../src/index.js";

/** The fixture MCP server (stdio by default, `--http` for Streamable HTTP). */
export const FIXTURE_SERVER = fileURLToPath(new URL("../fixtures/mcp/tools-server.mjs", import.meta.url));

/** A hostile server offering the tools in its POISON_TOOLS environment variable (tool-search poisoning). */
export const POISON_SERVER = fileURLToPath(new URL("../fixtures/mcp/poison-server.mjs", import.meta.url));

/** A stdio config for the fixture server, logging to `log` (cancellations it saw). */
export function fixtureConfig(log: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_LOG: log }, ...extra };
}

/** A fresh temp folder and a log file path inside it. */
export function tempLog(): { dir: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), "embabel-mcp-"));
  return { dir, log: join(dir, "fixture.log") };
}

/** The lines the fixture server logged so far. */
export function logLines(log: string): string[] {
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
}

/** Waits until `check` holds (polling), or fails after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Whether process `pid` is alive: `process.kill(pid, 0)` succeeds and it is no
 * zombie (an exited process whose parent, here possibly a pid 1 that reaps
 * nothing, has not collected it).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc: trust kill(pid, 0)
  }
}

/**
 * The fixture served over Streamable HTTP on 127.0.0.1 (at `requestedPort`, 0
 * for a free one), or over the legacy HTTP+SSE transport with `sse`; resolves
 * once it listens, with the URL a client connects to. `env` adds to the
 * fixture's environment (a variant's switches).
 */
export async function startHttpFixture(
  log: string,
  requestedPort = 0,
  transport: "http" | "sse" = "http",
  script: string = FIXTURE_SERVER,
  env: Readonly<Record<string, string>> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [script, `--${transport}`, "--port", String(requestedPort)], {
    env: { ...process.env, ...env, FIXTURE_LOG: log },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /LISTENING (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`HTTP fixture exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/${transport === "sse" ? "sse" : "mcp"}`, child };
}

/** A stdio MCP server offering `search`, `fetch`, `lookup` and `blackboard_list`, each answer starting with `label`. */
export const SEARCH_SERVER = fileURLToPath(new URL("../fixtures/mcp/search-server.mjs", import.meta.url));

/** A stdio config for {@link SEARCH_SERVER} answering as `label`. */
export function searchServerConfig(label: string): Record<string, unknown> {
  return { command: process.execPath, args: [SEARCH_SERVER], env: { FIXTURE_LABEL: label } };
}

/** A logger that keeps its warnings, for tests that check what was reported. */
export function recordingLogger(): {
  logger: { debug(): void; info(): void; warn(message: string): void; error(message: string): void };
  warnings: string[];
} {
  const warnings: string[] = [];
  const noop = (): void => {};
  return {
    logger: { debug: noop, info: noop, warn: (message) => warnings.push(message), error: noop },
    warnings,
  };
}

/**
 * For each test of the file: the default logger's warnings, recorded afresh;
 * `cleanups` registered during a test run after it, last first (the logger is restored).
 */
export function recordWarningsPerTest(): {
  readonly warnings: string[];
  readonly cleanups: (() => Promise<void> | void)[];
} {
  const warnings: string[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  beforeEach(() => {
    warnings.length = 0;
    const recording = recordingLogger();
    const previous = Logger.setDefault({
      ...recording.logger,
      warn: (message: string) => void warnings.push(message),
    });
    cleanups.push(() => {
      Logger.setDefault(previous);
    });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return { warnings, cleanups };
}
