import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpClients, McpToolFactory } from "../src/index.js";
import { captureLogs } from "./support/captured-logs.js";
import { CLI_MAIN } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { eventually, FIXTURE_SERVER, isAlive, tempLog } from "./support/mcp-fixture.js";

// Stdio MCP servers run in a process group of their own: closing, exiting or
// being signalled ends the whole group, an `sh -c` (or npx) wrapper's real
// server and what it started included.

const STUBBORN = fileURLToPath(new URL("./fixtures/mcp/ignores-stdin-eof.mjs", import.meta.url));
const WEATHER_SERVER = join(root, "examples/mcp-weather/weather-server.mjs");

beforeAll(() => ensureBuilt(), 300_000);

const { dir } = tempLog();
const pids: number[] = [];
afterEach(() => {
  for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, "SIGKILL");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
/**
 * A server started as `sh -c '"node" ignores-stdin-eof.mjs <server>; echo'`, as
 * an npx wrapper starts its package: the real server is a grandchild that
 * ignores its stdin closing (and SIGTERM with `ignoreSigterm`) and has a
 * `sleep 300` child. Returns its config and where its pids will be.
 */
function wrappedServer(options: { ignoreSigterm?: boolean; server?: string } = {}) {
  const pidFile = join(dir, `server-${++count}.pid`);
  const command = `"${process.execPath}" "${STUBBORN}" "${options.server ?? FIXTURE_SERVER}"; echo wrapper-done >&2`;
  const config = {
    command: "sh",
    args: ["-c", command],
    env: { PID_FILE: pidFile, SPAWN_SLEEP: "1", ...(options.ignoreSigterm ? { IGNORE_SIGTERM: "1" } : {}) },
  };
  return {
    config,
    pidFile,
    /** The server's and its sleep's pids, once written. */
    async pids(): Promise<number[]> {
      await eventually(() => existsSync(pidFile) && existsSync(`${pidFile}.sleep`));
      const found = [Number(readFileSync(pidFile, "utf8")), Number(readFileSync(`${pidFile}.sleep`, "utf8"))];
      pids.push(...found);
      return found;
    },
  };
}

describe("McpClient.close()", () => {
  it("ends an sh wrapper, its real server that ignores stdin closing, and that server's child", async () => {
    const server = wrappedServer();
    const clients = McpClients.fromConfig({ mcpServers: { wrapped: server.config } });
    const echo = await McpToolFactory.create(clients).requiredToolByName("echo");
    expect(await echo.call('{"text":"hi"}')).toMatchObject({ content: "hi" });
    const wrapper = clients.get("wrapped")?.pid as number;
    const group = [wrapper, ...(await server.pids())];
    expect(group.every(isAlive)).toBe(true);
    const started = Date.now();
    await clients.close();
    expect(Date.now() - started).toBeLessThan(3_500);
    await eventually(() => !group.some(isAlive), 2_000);
  });

  it("kills a group that ignores SIGTERM too", async () => {
    const server = wrappedServer({ ignoreSigterm: true });
    const clients = McpClients.fromConfig({ mcpServers: { wrapped: server.config } });
    await McpToolFactory.create(clients).requiredToolByName("echo");
    const group = await server.pids();
    await clients.close();
    await eventually(() => !group.some(isAlive), 2_000);
  });
});

describe("a stdio server that dies by itself", () => {
  it("takes what it started with it", async () => {
    const server = wrappedServer();
    const clients = McpClients.fromConfig({ mcpServers: { wrapped: server.config } });
    const logs = captureLogs();
    try {
      const crash = await McpToolFactory.create(clients).requiredToolByName("crash");
      const group = await server.pids();
      expect(await crash.call("{}")).toMatchObject({ kind: "error" });
      await eventually(() => !group.some(isAlive), 3_000);
      // The library says which server failed, with the end of its stderr.
      expect(logs.lines).toContainEqual(
        expect.stringMatching(
          /^warn: MCP server 'wrapped' failed to run tool 'crash'; its stderr ends with:\n/,
        ),
      );
    } finally {
      await clients.close();
      logs.restore();
    }
  });
});

/** Runs `script` as an ES module in a new Node process. */
function node(script: string): ChildProcess {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.pid) pids.push(child.pid);
  return child;
}

/** Resolves once `child` printed `READY`. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("READY")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`exited early (${code})`)));
  });
}

/** A script that starts `config` as server `wrapped`, calls it once, prints READY and then `end`s. */
function parentScript(config: unknown, end: string): string {
  const mcp = pathToFileURL(join(root, "dist/src/mcp/index.js")).href;
  return [
    `import { McpClients, McpToolFactory } from ${JSON.stringify(mcp)};`,
    `const clients = McpClients.fromConfig({ mcpServers: { wrapped: ${JSON.stringify(config)} } });`,
    'await (await McpToolFactory.create(clients).requiredToolByName("echo")).call(\'{"text":"x"}\');',
    'console.log("READY");',
    end,
  ].join("\n");
}

describe("the Node process that started a stdio server", () => {
  for (const [how, end] of [
    ["exits", "setTimeout(() => process.exit(0), 300);"],
    ["is ended by SIGTERM", "setInterval(() => {}, 1000);"],
    ["is ended by SIGINT", "setInterval(() => {}, 1000);"],
  ] as const) {
    it(`ends the server's whole group when it ${how}`, async () => {
      const server = wrappedServer();
      const parent = node(parentScript(server.config, end));
      await ready(parent);
      const group = await server.pids();
      if (how !== "exits") parent.kill(how.endsWith("SIGTERM") ? "SIGTERM" : "SIGINT");
      await new Promise((resolve) => parent.once("exit", resolve));
      await eventually(() => !group.some(isAlive), 3_000);
    });
  }

  it.skipIf(process.platform === "win32")(
    "is SIGKILLed: the watchdog ends the wrapper, the server that ignores stdin EOF and SIGTERM, and its child (0 left)",
    async () => {
      const server = wrappedServer({ ignoreSigterm: true });
      const parent = node(parentScript(server.config, "setInterval(() => {}, 1000);"));
      await ready(parent);
      const group = await server.pids();
      expect(group.filter(isAlive)).toHaveLength(2);
      parent.kill("SIGKILL");
      await new Promise((resolve) => parent.once("exit", resolve));
      // The watchdog polls the host once a second.
      await eventually(() => !group.some(isAlive), 5_000);
      expect(group.filter(isAlive)).toHaveLength(0);
    },
  );

  it("leaves a well-behaved server to exit by itself on stdin EOF when it is SIGKILLed", async () => {
    const pidFile = join(dir, "eof.pid");
    writeFileSync(pidFile, "");
    // The plain fixture, which exits when its stdin closes, as the MCP specification expects of a server.
    const parent = node(
      parentScript(
        { command: process.execPath, args: [FIXTURE_SERVER] },
        `const pid = await (await McpToolFactory.create(clients).requiredToolByName("pid")).call("{}");
         (await import("node:fs")).writeFileSync(${JSON.stringify(pidFile)}, pid.content);
         setInterval(() => {}, 1000);`,
      ),
    );
    await ready(parent);
    await eventually(() => readFileSync(pidFile, "utf8").length > 0);
    const server = Number(readFileSync(pidFile, "utf8"));
    pids.push(server);
    parent.kill("SIGKILL");
    await eventually(() => !isAlive(server), 5_000);
  });
});

describe("embabel-ts", () => {
  it("run exits promptly after a normal finish when an MCP server it started ignores its stdin closing", async () => {
    const cwd = join(dir, "app");
    mkdirSync(cwd, { recursive: true });
    const server = wrappedServer({ server: WEATHER_SERVER });
    writeFileSync(
      join(cwd, "embabel.config.json"),
      JSON.stringify({ mcpServers: { weather: server.config } }),
    );
    const started = Date.now();
    const child = spawn(process.execPath, [CLI_MAIN, "run", "mcp-weather", "Lisbon", "--scripted"], {
      cwd,
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (child.pid) pids.push(child.pid);
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    clearTimeout(killer);
    const group = await server.pids(); // known to the cleanup before anything can fail
    expect(code, output).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(output).toContain("Lisbon");
    await eventually(() => !group.some(isAlive), 3_000);
  }, 40_000);

  it("mcp-serve exits when its stdin closes", async () => {
    const child = spawn(process.execPath, [CLI_MAIN, "mcp-serve", "--scripted"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    if (child.pid) pids.push(child.pid);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin?.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`,
    );
    await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
    child.stdin?.end();
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    expect(await exited).toBe(0);
    clearTimeout(killer);
  }, 20_000);
});
