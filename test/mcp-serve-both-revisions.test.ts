import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer, McpServerCall, serveMcpOverHttp, Tool, ToolResult } from "../src/index.js";
import { ensureBuilt } from "./support/dist.js";
import { mcpServeUrl } from "./support/mcp-serve-url.js";

// One served endpoint, both MCP revisions: a 2025-11-25 client (the v1 SDK,
// with a session) and a 2026-07-28 client (the v2 SDK pinned to the modern
// revision, no session) call the same running server; a tool that asks for
// input works on both (input_required on 2026, real elicitation on 2025). Then
// two server processes behind alternating requests: a round minted by one is
// finished by the other (stateless scaling), and refused by one with another
// secret.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const NAME_FORM = {
  type: "object" as const,
  properties: { name: { type: "string" as const } },
  required: ["name"],
};

const echo = Tool.create("echo_revision", "Says which revision the call came on", async () =>
  ToolResult.text(McpServerCall.current()?.modern ? "2026-07-28" : "2025-11-25"),
);
const askName = Tool.create("ask_name", "Asks the user's name, then greets", async () => {
  const call = McpServerCall.current() as McpServerCall;
  const answer = call.inputResponses?.name as { action?: string; content?: { name?: unknown } } | undefined;
  if (answer?.action === "accept" && (call.requestState as { asked?: boolean } | undefined)?.asked) {
    return ToolResult.text(`Hello, ${String(answer.content?.name)}!`);
  }
  return call.requireInput(
    {
      name: {
        method: "elicitation/create",
        params: { mode: "form", message: "Your name?", requestedSchema: NAME_FORM },
      },
    },
    { asked: true },
  );
});

async function serveBoth() {
  const endpoint = await serveMcpOverHttp(() => createMcpServer({ name: "both", tools: [echo, askName] }));
  cleanups.push(() => endpoint.close());
  return endpoint;
}

function textOf(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((block) => block.text).join("");
}

describe("one endpoint serving MCP 2025-11-25 and 2026-07-28", () => {
  it("answers a v1 client (session) and a v2 client (modern, per request) on the same running server", async () => {
    const { url } = await serveBoth();
    const legacy = new Client({ name: "legacy", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    legacy.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { name: "Ada" },
    }));
    const legacyTransport = new StreamableHTTPClientTransport(new URL(url));
    await legacy.connect(legacyTransport);
    cleanups.push(() => legacy.close());
    const modern = new ClientV2(
      { name: "modern", version: "1.0.0" },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    modern.setRequestHandler("elicitation/create", async () => ({
      action: "accept",
      content: { name: "Grace" },
    }));
    await modern.connect(new TransportV2(new URL(url)));
    cleanups.push(() => modern.close());

    expect(legacyTransport.sessionId).toEqual(expect.any(String));
    expect(modern.getProtocolEra()).toBe("modern");
    const [legacyEcho, modernEcho] = await Promise.all([
      legacy.callTool({ name: "echo_revision", arguments: {} }),
      modern.callTool({ name: "echo_revision", arguments: {} }),
    ]);
    expect([textOf(legacyEcho), textOf(modernEcho)]).toEqual(["2025-11-25", "2026-07-28"]);
    // The same tool asks both: by a real elicitation on the session, by input_required on 2026.
    expect(textOf(await legacy.callTool({ name: "ask_name", arguments: {} }))).toBe("Hello, Ada!");
    expect(textOf(await modern.callTool({ name: "ask_name", arguments: {} }))).toBe("Hello, Grace!");
  });

  it("refuses a 2026-07-28 request without the required _meta envelope, and an unknown revision", async () => {
    const { url } = await serveBoth();
    const post = (body: unknown, version: string) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": version,
          "mcp-method": "tools/list",
        },
        body: JSON.stringify(body),
      });
    const missing = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, "2026-07-28");
    expect(missing.status).toBe(400);
    const unknown = await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2099-01-01",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
      "2099-01-01",
    );
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(-32022);
  });
});

// Two processes behind one (alternating) endpoint: raw 2026-07-28 POSTs, each to the other process.
const FIXTURE = join(import.meta.dirname, "fixtures", "mcp", "two-round-server.mjs");
const children: ChildProcessWithoutNullStreams[] = [];

function serveProcess(secret: string): Promise<string> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { PATH: process.env.PATH ?? "", EMBABEL_TEST_STATE_SECRET: secret },
  });
  children.push(child);
  return mcpServeUrl(child);
}

let id = 0;
async function call(
  url: string,
  params: Record<string, unknown>,
  tool = "greet_in_two_rounds",
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": tool,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++id,
      method: "tools/call",
      params: {
        name: tool,
        arguments: {},
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
        },
      },
    }),
  });
  const body = await response.text();
  // A JSON body, or an SSE stream whose last data line is the answer.
  const json = response.headers.get("content-type")?.includes("text/event-stream")
    ? (
        body
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .pop() ?? ""
      ).slice(6)
    : body;
  return JSON.parse(json) as Record<string, unknown>;
}

describe("two server processes sharing a state secret (no sessions, no sticky routing)", () => {
  const SECRET = "a-secret-shared-by-both-processes-0123456789";
  let first: string;
  let second: string;
  let stranger: string;
  beforeAll(async () => {
    ensureBuilt();
    [first, second, stranger] = await Promise.all([
      serveProcess(SECRET),
      serveProcess(SECRET),
      serveProcess("another-secret-of-another-deployment-0123456789"),
    ]);
  }, 60_000);
  afterAll(() => {
    for (const child of children) child.kill("SIGKILL");
  });

  it("finishes on one process a round the other process started", async () => {
    const round1 = (await call(first, {})).result as Record<string, unknown>;
    expect(round1.resultType).toBe("input_required");
    expect(Object.keys(round1.inputRequests as object)).toEqual(["name"]);
    const round2 = await call(second, {
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      requestState: round1.requestState,
    });
    const text = textOf(round2.result);
    expect(text).toMatch(/^Hello, Ada! \(finished by process (\d+), asked by (\d+)\)$/);
    const [, finishedBy, askedBy] = /process (\d+), asked by (\d+)/.exec(text) ?? [];
    expect(finishedBy).not.toBe(askedBy);
  });

  it("refuses state signed with another secret, or altered by the client, with -32602", async () => {
    const round1 = (await call(first, {})).result as Record<string, unknown>;
    const answers = { name: { action: "accept", content: { name: "Mallory" } } };
    const foreign = await call(stranger, { inputResponses: answers, requestState: round1.requestState });
    expect((foreign.error as { code: number }).code).toBe(-32602);
    const state = String(round1.requestState);
    const altered = `${state.slice(0, 10)}${state[10] === "A" ? "B" : "A"}${state.slice(11)}`;
    const tampered = await call(second, { inputResponses: answers, requestState: altered });
    expect((tampered.error as { code: number }).code).toBe(-32602);
  });

  it("asks a person's approval in the result, and runs the call once on the process that gets the answer", async () => {
    const round1 = (await call(first, {}, "pay")).result as Record<string, unknown>;
    expect(round1.resultType).toBe("input_required");
    const form = (round1.inputRequests as Record<string, { method: string; params: { message: string } }>)
      .approval;
    expect(form?.method).toBe("elicitation/create");
    expect(form?.params.message).toContain("Pay 100 cents?");
    const approve = { approval: { action: "accept", content: { approve: true } } };
    const retry = { inputResponses: approve, requestState: round1.requestState };
    const paid = await call(second, retry, "pay");
    expect(textOf(paid.result)).toMatch(/^paid by process \d+$/);
    // The same answer again (a replay) does not pay twice: the person is asked anew.
    const replayed = (await call(second, retry, "pay")).result as Record<string, unknown>;
    expect(replayed.resultType).toBe("input_required");
    // Declined: refused, never run.
    const again = (await call(first, {}, "pay")).result as Record<string, unknown>;
    const declined = await call(
      second,
      { inputResponses: { approval: { action: "decline" } }, requestState: again.requestState },
      "pay",
    );
    expect(textOf(declined.result)).toContain("declined in the MCP client");
    expect(textOf(declined.result)).not.toContain("paid");
  });
});
