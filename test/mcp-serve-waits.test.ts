import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type ElicitRequest, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";

// `embabel-ts mcp-serve --scripted` (the built command over stdio) and the
// SDK's own client: refund-desk waits for approval of its refund; a client
// that supports elicitation is asked and the run goes on with its answer; a
// client without it gets isError naming the process and the request.

beforeAll(() => ensureBuilt(), 180_000);

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(
  elicit?: (request: ElicitRequest) => { action: "accept"; content: Record<string, unknown> },
) {
  client = new Client(
    { name: "test", version: "1.0.0" },
    elicit ? { capabilities: { elicitation: {} } } : {},
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [main, "mcp-serve", "--scripted"],
      cwd: root,
      env: { PATH: process.env.PATH ?? "" },
      stderr: "ignore",
    }),
  );
  return client.callTool({
    name: "RefundDesk",
    arguments: { content: "My telescope (order A-1001) arrived dented. Please refund me." },
  });
}

const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { text: string }[]).map((part) => part.text).join("");

describe("embabel-ts mcp-serve and an agent that waits", () => {
  it("asks the client by elicitation and resumes with its approval", async () => {
    const asked: string[] = [];
    const result = await connect((request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: true } };
    });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('"refundedCents":4900');
    expect(asked).toEqual([expect.stringContaining("Refund $49.00 for order A-1001?")]);
  }, 60_000);

  it("asks again when the edited arguments are refused, and refunds the edited amount", async () => {
    const asked: string[] = [];
    const edits = [
      '{"orderId":"A-1001","cents":-1,"reason":"x"}',
      '{"orderId":"A-1001","cents":2500,"reason":"part"}',
    ];
    const result = await connect((request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: true, input: edits.shift() } };
    });
    expect(text(result)).toContain('"refundedCents":2500');
    expect(asked).toHaveLength(2);
    expect(asked[1]).toMatch(/Asked again: .*cents/);
  }, 60_000);

  it("gives a client without elicitation the request's id, which it answers with respond_to_request", async () => {
    const result = await connect();
    expect(result.isError).toBe(true);
    const [, requestId] = /Request id: (\S+)\./.exec(text(result)) ?? [];
    expect(requestId).toMatch(/^[0-9a-f-]{36}\/r1$/);
    expect(text(result)).toContain("respond_to_request");
    const done = await client?.callTool({
      name: "respond_to_request",
      arguments: { requestId, approve: true },
    });
    expect(done?.isError).toBeFalsy();
    expect(text(done as Awaited<ReturnType<Client["callTool"]>>)).toContain('"refundedCents":4900');
  }, 60_000);
});
