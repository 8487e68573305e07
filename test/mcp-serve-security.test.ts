import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpClients } from "../src/index.js";
import { cli, CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt } from "./support/dist.js";
import { mcpServeUrl } from "./support/mcp-serve-url.js";

// `embabel-ts mcp-serve` as a user starts it (the built command, spawned with
// node), attacked as the security review did: a rebound Host, no token.

const cwd = mkdtempSync(join(tmpdir(), "embabel-mcp-serve-sec-"));
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => ensureBuilt(), 180_000);
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** Starts `mcp-serve --http 0 …` and resolves with its URL once it listens. */
async function serveHttp(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [main, "mcp-serve", "--http", "0", "--scripted", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  children.push(child);
  return mcpServeUrl(child);
}

/** POSTs an initialize (a session's first message) to `url` with these headers; resolves with the status. */
function status(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "probe", version: "1" },
        },
      }),
    );
  });
}

describe("embabel-ts mcp-serve --http", () => {
  it("answers a rebound Host or a foreign Origin 403, and its own names 200", async () => {
    const url = await serveHttp(["--allowed-origin", "https://app.example.com"]);
    const port = new URL(url).port;
    expect(await status(url, { host: `rebind.attacker.example:${port}` })).toBe(403);
    expect(
      await status(url, { host: `127.0.0.1:${port}`, origin: `http://rebind.attacker.example:${port}` }),
    ).toBe(403);
    expect(await status(url, { host: `localhost:${port}` })).toBe(200);
    expect(await status(url, { host: `127.0.0.1:${port}`, origin: "https://app.example.com" })).toBe(200);
  });

  it("with --token, serves only requests carrying it", async () => {
    const url = await serveHttp(["--token", "cli-t0ken"]);
    const host = new URL(url).host;
    expect(await status(url, { host })).toBe(401);
    expect(await status(url, { host, authorization: "Bearer nope" })).toBe(401);
    expect(await status(url, { host, authorization: "Bearer cli-t0ken" })).toBe(200);
    const clients = McpClients.fromConfig({
      mcpServers: { examples: { url, headers: { Authorization: "Bearer cli-t0ken" } } },
    });
    try {
      const names = (await clients.get("examples")?.listTools())?.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["StarNewsWriter", "WeatherReporter"]));
    } finally {
      await clients.close();
    }
  });

  it("with --max-sessions 2, a third client is refused only while both sessions hold open streams", async () => {
    const url = await serveHttp(["--max-sessions", "2"]);
    const host = new URL(url).host;
    const held: Client[] = [];
    try {
      for (let index = 0; index < 2; index++) {
        const client = new Client({ name: "holder", version: "1" });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        held.push(client);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await status(url, { host })).toBe(503);
      await held[0]?.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The closed client's session is idle now: it makes room (no DELETE was sent).
      expect(await status(url, { host })).toBe(200);
      expect(await status(url, { host })).toBe(200);
    } finally {
      for (const client of held) await client.close();
    }
  });

  it("takes the token from EMBABEL_MCP_TOKEN", async () => {
    const url = await serveHttp([], { EMBABEL_MCP_TOKEN: "env-t0ken" });
    const host = new URL(url).host;
    expect(await status(url, { host })).toBe(401);
    expect(await status(url, { host, authorization: "Bearer env-t0ken" })).toBe(200);
  });

  it("refuses to start on a non-loopback --host without a token, saying how to give one", async () => {
    const run = await cli(["mcp-serve", "--http", "0", "--host", "0.0.0.0", "--scripted"], {}, cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "mcp-serve --host 0.0.0.0 would let anyone on the network run the agents: give a token with --token <t> or EMBABEL_MCP_TOKEN",
    );
  });
});

/** The JSON lines a spawned server has written so far, parsed. */
function messages(
  out: string,
): { id?: unknown; result?: { tools?: { name: string }[] }; error?: { code: number; message: string } }[] {
  return out
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("embabel-ts mcp-serve over stdio", () => {
  it("answers a message over the size limit with a JSON-RPC error, logs it on stderr, and keeps serving", async () => {
    const child = spawn(process.execPath, [main, "mcp-serve", "--scripted"], {
      cwd,
      env: { PATH: process.env.PATH ?? "" },
    });
    children.push(child);
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    await until(() => messages(out).some((message) => message.id === 1), 20_000);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const pad = "a".repeat(20 * 1024 * 1024);
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "StarNewsWriter", arguments: { content: pad } },
    });
    send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
    await until(() => messages(out).some((message) => message.id === 3), 30_000);
    const [tooBig] = messages(out).filter((message) => message.id === 2);
    expect(tooBig?.error).toEqual({
      code: -32600,
      message: "Message too large: this server accepts messages of up to 10485760 bytes.",
    });
    const listed = messages(out).find((message) => message.id === 3);
    expect(listed?.result?.tools?.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["StarNewsWriter", "WeatherReporter"]),
    );
    expect(err).toContain("refused a message over 10485760 bytes; still serving.");
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});
