import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../../platform/agent-platform.js";
import { Tool } from "../../tool/tool.js";
import { ToolResult } from "../../tool/tool-result.js";
import { createMcpServer } from "./create-mcp-server.js";

async function connected(tools: Tool[]): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ name: "t", tools }).connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("createMcpServer", () => {
  it("answers an unknown tool with the JSON-RPC error -32602 naming the tools it has", async () => {
    const client = await connected([Tool.create("hello", "Says hello", async () => ToolResult.text("hi"))]);
    const call = client.callTool({ name: "nope", arguments: {} });
    await expect(call).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Tool nope not found. Available tools: hello"),
    });
    await client.close();
  });

  it("aborts the tool's signal when the client cancels the request", async () => {
    let aborted = false;
    const waiting = Tool.create("wait", "Waits until cancelled", async (_input, _context, options) => {
      await new Promise<void>((resolve) =>
        options.signal?.addEventListener("abort", () => {
          aborted = true;
          resolve();
        }),
      );
      return ToolResult.text("cancelled");
    });
    const client = await connected([waiting]);
    const controller = new AbortController();
    const call = client.callTool({ name: "wait", arguments: {} }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toThrow(/AbortError|aborted/);
    await expect.poll(() => aborted).toBe(true);
    await client.close();
  });

  it("fails fast on an agent name that is not deployed, and on agents without a platform", () => {
    const platform = AgentPlatform.create({ models: {} });
    expect(() => createMcpServer({ name: "t", platform, agents: ["Missing"] })).toThrow(
      "createMcpServer: no agent named 'Missing' is deployed on platform 'embabel'. Deployed agents: []",
    );
    expect(() => createMcpServer({ name: "t", agents: ["Missing"] })).toThrow(
      "createMcpServer: 'agents' needs the 'platform' they are deployed on.",
    );
  });

  it("refuses two different tools with one name", () => {
    const one = Tool.create("same", "One", async () => ToolResult.text("1"));
    const two = Tool.create("same", "Two", async () => ToolResult.text("2"));
    expect(() => createMcpServer({ name: "t", tools: [one, two] })).toThrow(
      "createMcpServer: two different tools are named 'same'.",
    );
  });
});
