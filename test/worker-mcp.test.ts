import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// A worker builds its platform as `embabel-ts run` does: the config file's
// MCP servers and tool groups are set up, a queued run uses them, and
// stopping the worker ends the MCP server's child process.

const weatherServer = join(root, "examples/mcp-weather/weather-server.mjs");

/** The pids of the processes whose parent is `parent` and whose command line contains `text`. */
function childrenOf(parent: number, text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (ppid === parent && cmdline.includes(text)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function isAlive(pid: number): boolean {
  return existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
}

describe.skipIf(!hasRedisServer)("embabel-ts worker with a config's MCP servers and tool groups", () => {
  let redis: TestRedis;
  let dir: string;
  let worker: ChildProcess | undefined;
  const mcpChildren: number[] = [];

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), "embabel-worker-mcp-"));
  }, 180_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill("SIGKILL");
    for (const pid of mcpChildren) if (isAlive(pid)) process.kill(pid, "SIGKILL");
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("runs a queued mcp-weather run with the config's MCP tools, and ends the MCP server on SIGTERM", async () => {
    // The user's config names the weather server by absolute path (overriding the example's own entry).
    const config = join(dir, "embabel.config.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { weather: { command: process.execPath, args: [weatherServer] } },
        toolGroups: {
          weather: {
            description: "Get weather for location",
            provider: "example-weather",
            tools: ["forecast", "alerts"],
          },
        },
      }),
    );
    const child = spawn(
      process.execPath,
      [main, "worker", "--redis", redis.url, "--scripted", "--queue", "mcp", "--config", config],
      { cwd: dir, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    worker = child;
    let stdout = "";
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk) => {
        stdout += chunk;
        if (stdout.includes(`worker ${child.pid} `)) resolve();
      });
      child.once("exit", (code) =>
        reject(new Error(`worker exited (${code}) before it was ready: ${stderr}`)),
      );
    });

    const run = await cli(["run", "mcp-weather", "--redis", redis.url, "--queue", "mcp"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Lisbon: .+, \d+°C\. No warnings in force for Lisbon\./);
    expect(stdout).toMatch(/✔ WeatherReporter [0-9a-f-]{36} completed/);

    // The worker started the configured server (the user's absolute path), as its own child.
    mcpChildren.push(...childrenOf(child.pid as number, weatherServer));
    expect(mcpChildren).toHaveLength(1);

    const exited = new Promise<number | null>((resolve) => {
      child.removeAllListeners("exit");
      child.once("exit", resolve);
    });
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of mcpChildren) expect(isAlive(pid), `MCP server ${pid} still running`).toBe(false);
  }, 30_000);
});
