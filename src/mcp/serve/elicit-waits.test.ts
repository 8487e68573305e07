import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { RefundDesk, refundDeskScript } from "../../../examples/refund-desk/index.js";
import { AgentPlatform } from "../../platform/agent-platform.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import { createMcpServer } from "./create-mcp-server.js";

/** A real SDK client on a server serving RefundDesk; `elicit` answers elicitations (absent: the client cannot). */
async function connected(elicit?: (request: ElicitRequest) => ElicitResult) {
  const platform = AgentPlatform.create({ models: { main: new ScriptedModel(refundDeskScript()) } });
  platform.deploy(RefundDesk);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ name: "desk", platform }).connect(serverSide);
  const client = new Client(
    { name: "test", version: "1.0.0" },
    elicit ? { capabilities: { elicitation: {} } } : {},
  );
  const asked: ElicitRequest[] = [];
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return elicit(request);
    });
  }
  await client.connect(clientSide);
  const call = () =>
    client.callTool({
      name: "RefundDesk",
      arguments: { content: "My telescope (order A-1001) arrived dented." },
    });
  return { platform, client, asked, call };
}

const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join("");

describe("an agent served by createMcpServer that waits", () => {
  it("asks a client that supports elicitation, and resumes with its approval", async () => {
    const { asked, call } = await connected(() => ({ action: "accept", content: { approve: true } }));
    const result = await call();
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('"refundedCents":4900');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.params.message).toContain("Refund $49.00 for order A-1001?");
    expect(asked[0]?.params).toMatchObject({ requestedSchema: { required: ["approve"] } });
  });

  it("a denial with a reason reaches the model, and the run completes", async () => {
    const { call } = await connected(() => ({
      action: "accept",
      content: { approve: false, reason: "no photo" },
    }));
    const result = await call();
    expect(text(result)).toContain('"refundedCents":0');
    expect(text(result)).toContain("Sorry");
  });

  it("a declined elicitation denies the call", async () => {
    const { call } = await connected(() => ({ action: "decline" }));
    expect(text(await call())).toContain('"refundedCents":0');
  });

  it("gives a client without elicitation an isError result naming the process and request, to answer later", async () => {
    const { platform, call } = await connected();
    const result = await call();
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("is waiting for request r1 (approve issue_refund(");
    expect(text(result)).toContain("respond_to_request");
    const match = /Request id: (\S+)\/(r1)\./.exec(text(result));
    expect(match, text(result)).not.toBeNull();
    const done = await platform.respond(match?.[1] as string, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ refundedCents: 4900 });
  });
});
