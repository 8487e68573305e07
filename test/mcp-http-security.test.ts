// serveMcpOverHttp against DNS rebinding and without a token: real HTTP
// requests on 127.0.0.1 (node:http, which lets a test set Host as a rebound
// browser page would send it) against a real served MCP server.
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  ConfigurationError,
  createMcpServer,
  McpClients,
  McpToolFactory,
  type ServeMcpOverHttpOptions,
  serveMcpOverHttp,
  Tool,
  ToolResult,
} from "../src/index.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A served server whose one tool counts its calls; `created` counts the MCP
 * servers made (one per request read). Stateless unless said otherwise, so
 * one bare POST reaches the tool (the guard is the same with sessions).
 */
async function served(options: ServeMcpOverHttpOptions = { sessions: "stateless" }) {
  const counts = { created: 0, calls: 0 };
  const secret = Tool.create("secret_report", "Returns the private report", async () => {
    counts.calls++;
    return ToolResult.text("the private report");
  });
  const endpoint = await serveMcpOverHttp(() => {
    counts.created++;
    return createMcpServer({ name: "guarded", tools: [secret] });
  }, options);
  cleanups.push(() => endpoint.close());
  return { endpoint, counts };
}

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

const CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "secret_report", arguments: {} },
});

/** POSTs a tools/call to 127.0.0.1:`port` with these headers (Host among them, as a browser would send it). */
function post(port: number, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: `127.0.0.1:${port}`,
          ...headers,
        },
      },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(CALL);
  });
}

describe("serveMcpOverHttp: Host and Origin (DNS rebinding)", () => {
  it("refuses a rebound Host with 403 before reading any JSON-RPC", async () => {
    const { endpoint, counts } = await served();
    const answer = await post(endpoint.port, {
      host: `rebind.attacker.example:${endpoint.port}`,
      origin: `http://rebind.attacker.example:${endpoint.port}`,
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({
      jsonrpc: "2.0",
      error: {
        message: `This MCP server does not answer to Host 'rebind.attacker.example:${endpoint.port}'.`,
      },
    });
    expect(answer.body).not.toContain("private report");
    expect(counts).toEqual({ created: 0, calls: 0 });
  });

  it("answers localhost, 127.0.0.1 and [::1] (any port: a tunnel or port mapping changes it), and no other name", async () => {
    const { endpoint, counts } = await served();
    const port = endpoint.port;
    const loopback = [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`];
    for (const host of [...loopback, `localhost:${port + 1}`, "127.0.0.1"]) {
      const answer = await post(port, { host });
      expect({ host, status: answer.status }).toEqual({ host, status: 200 });
      expect(answer.body).toContain("the private report");
    }
    for (const host of [
      `localhost.attacker.example:${port}`,
      `evil.localhost:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `127.0.0.2:${port}`,
      `0.0.0.0:${port}`,
    ]) {
      expect({ host, status: (await post(port, { host })).status }).toEqual({ host, status: 403 });
    }
    expect(counts.calls).toBe(6);
  });

  it("refuses a browser Origin other than its own; a request without Origin passes", async () => {
    const { endpoint, counts } = await served();
    const port = endpoint.port;
    expect((await post(port, {})).status).toBe(200);
    expect((await post(port, { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await post(port, { origin: `http://localhost:${port}`, host: `localhost:${port}` })).status).toBe(
      200,
    );
    for (const origin of [
      "http://evil.example",
      "null",
      `http://127.0.0.1:${port + 1}`,
      `https://127.0.0.1:${port}`,
    ]) {
      const answer = await post(port, { origin });
      expect({ origin, status: answer.status }).toEqual({ origin, status: 403 });
      expect(JSON.parse(answer.body).error.message).toBe(
        `Requests from origin '${origin}' are not accepted.`,
      );
    }
    expect(counts.calls).toBe(3);
  });

  it("accepts the hosts and origins it is told to (a reverse proxy, a web app)", async () => {
    const { endpoint } = await served({
      sessions: "stateless",
      allowedHosts: ["mcp.example.com", "tools.internal:9000"],
      allowedOrigins: ["https://app.example.com"],
    });
    const port = endpoint.port;
    expect((await post(port, { host: "mcp.example.com" })).status).toBe(200);
    expect((await post(port, { host: "tools.internal:9000" })).status).toBe(200);
    expect((await post(port, { host: "tools.internal:9001" })).status).toBe(403);
    expect((await post(port, { host: "mcp.example.com", origin: "https://app.example.com" })).status).toBe(
      200,
    );
    expect((await post(port, { host: "mcp.example.com", origin: "https://evil.example.com" })).status).toBe(
      403,
    );
  });

  it("still serves MCP clients of this library on its URL", async () => {
    const { endpoint } = await served();
    const clients = McpClients.fromConfig({ mcpServers: { guarded: { url: endpoint.url } } });
    cleanups.push(() => clients.close());
    const tool = await McpToolFactory.create(clients).requiredToolByName("secret_report");
    expect(await tool.call("{}")).toEqual(ToolResult.text("the private report"));
  });
});

describe("serveMcpOverHttp: a bearer token", () => {
  it("answers 401 without the token or with a wrong one, and serves with the right one", async () => {
    const { endpoint, counts } = await served({ sessions: "stateless", token: "t0ken-with-entropy" });
    const port = endpoint.port;
    const missing = await post(port, {});
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect((await post(port, { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await post(port, { authorization: "Bearer t0ken-with-entropy-and-more" })).status).toBe(401);
    expect((await post(port, { authorization: "Basic t0ken-with-entropy" })).status).toBe(401);
    expect(counts.created).toBe(0);
    const right = await post(port, { authorization: "Bearer t0ken-with-entropy" });
    expect(right.status).toBe(200);
    expect(right.body).toContain("the private report");
  });

  it("checks Host before the token: a rebound page with the token is still refused", async () => {
    const { endpoint } = await served({ token: "t" });
    const answer = await post(endpoint.port, { host: "rebind.attacker.example", authorization: "Bearer t" });
    expect(answer.status).toBe(403);
  });

  it("serves a client of this library that sends the token in its headers, and fails one that does not", async () => {
    const { endpoint } = await served({ token: "s3cret" });
    const clients = McpClients.fromConfig({
      mcpServers: {
        withToken: { type: "http", url: endpoint.url, headers: { Authorization: "Bearer s3cret" } },
        without: { type: "http", url: endpoint.url },
      },
    });
    cleanups.push(() => clients.close());
    const tools = await clients.get("withToken")?.listTools();
    expect(tools?.map((tool) => tool.name)).toEqual(["secret_report"]);
    await expect(clients.get("without")?.listTools()).rejects.toThrow(
      /^MCP server 'without' could not be reached: .*401/,
    );
  });

  it("refuses to listen on a non-loopback address without a token", async () => {
    const attempt = serveMcpOverHttp(() => createMcpServer({ name: "open", tools: [] }), { host: "0.0.0.0" });
    await expect(attempt).rejects.toThrow(ConfigurationError);
    await expect(attempt).rejects.toThrow(/Serving MCP on 0\.0\.0\.0 .* give a token/);
  });

  it("refuses an empty token", async () => {
    await expect(
      serveMcpOverHttp(() => createMcpServer({ name: "open", tools: [] }), { token: " " }),
    ).rejects.toThrow("serveMcpOverHttp: the token is empty; give the token clients must send, or none.");
  });
});
