// Which ToolCallContext keys reach an MCP server as _meta (security review
// M4): a server's `context` rule in `mcpServers`, against a real stdio
// server that echoes the _meta it received.
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  AgentPlatform,
  ConfigurationError,
  McpClients,
  McpToolFactory,
  ToolCallContext,
  ToolCallContextMcpMetaConverter,
} from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { fixtureConfig, tempLog } from "./support/mcp-fixture.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const context = ToolCallContext.of({
  tenantId: "acme",
  correlationId: "c-1",
  authToken: "ctx-SECRET-777",
  apiKey: "k-1",
});

function serverConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { dir, log } = tempLog();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return fixtureConfig(log, extra);
}

async function metaSeen(
  server: Record<string, unknown>,
  callContext: ToolCallContext,
  options: { metaConverter?: ToolCallContextMcpMetaConverter } = {},
): Promise<unknown> {
  const clients = McpClients.fromConfig({ mcpServers: { third: server } });
  cleanups.push(() => clients.close());
  const metaEcho = await McpToolFactory.create(clients, options).requiredToolByName("meta_echo");
  return JSON.parse((await metaEcho.call("{}", callContext)).content);
}

describe("mcpServers.<name>.context", () => {
  it("sends every entry by default (the chapter's passThrough)", async () => {
    expect(await metaSeen(serverConfig(), context)).toEqual({
      tenantId: "acme",
      correlationId: "c-1",
      authToken: "ctx-SECRET-777",
      apiKey: "k-1",
    });
  });

  it('with { "allow": [...] }, sends only those keys', async () => {
    expect(
      await metaSeen(serverConfig({ context: { allow: ["tenantId", "correlationId"] } }), context),
    ).toEqual({
      tenantId: "acme",
      correlationId: "c-1",
    });
  });

  it('with { "deny": [...] }, sends all but those keys', async () => {
    expect(await metaSeen(serverConfig({ context: { deny: ["authToken", "apiKey"] } }), context)).toEqual({
      tenantId: "acme",
      correlationId: "c-1",
    });
  });

  it("sends _meta: {} when no key is allowed (as the reference does), and none for an empty context", async () => {
    const server = serverConfig({ context: { allow: ["nonExistent"] } });
    expect(await metaSeen(server, context)).toEqual({});
    expect(await metaSeen(server, ToolCallContext.EMPTY)).toBeNull();
    expect(
      await metaSeen(serverConfig(), context, {
        metaConverter: ToolCallContextMcpMetaConverter.allowKeys("nonExistent"),
      }),
    ).toEqual({});
  });

  it("narrows whatever converter the code chose: config can only take keys away", async () => {
    const custom = (ctx: ToolCallContext) => ({ tenant: ctx.get("tenantId"), token: ctx.get("authToken") });
    expect(
      await metaSeen(serverConfig({ context: { allow: ["tenant"] } }), context, { metaConverter: custom }),
    ).toEqual({ tenant: "acme" });
  });

  it("holds through an agent's tool loop on a platform made from config", async () => {
    const model = new ScriptedModel([ScriptedModel.toolCall("meta_echo", {}), ScriptedModel.text("ok")]);
    const platform = AgentPlatform.create({
      models: { default: model },
      mcpServers: { third: serverConfig({ context: { allow: ["tenantId"] } }) },
      toolGroups: { meta: { tools: ["meta_echo"] } },
    });
    cleanups.push(() => platform.close());
    await platform
      .ai()
      .withToolGroup("meta")
      .withToolCallContext({ tenantId: "acme", authToken: "ctx-SECRET-777" })
      .generateText("go");
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({ type: "text", value: '{"tenantId":"acme"}' });
  });

  it("is validated like the rest of the config, naming the field", () => {
    const config = (rule: unknown) => ({ mcpServers: { third: { command: "node", context: rule } } });
    expect(() => McpClients.fromConfig(config({ allow: "tenantId" }))).toThrow(ConfigurationError);
    expect(() => McpClients.fromConfig(config({ allow: "tenantId" }))).toThrow(
      /mcpServers\.third\.context\.allow/,
    );
    expect(() => McpClients.fromConfig(config({ allow: ["a"], deny: ["b"] }))).toThrow(
      'mcpServers.third.context: takes either "allow": [keys] or "deny": [keys]',
    );
    expect(() => McpClients.fromConfig(config({}))).toThrow(/mcpServers\.third\.context: takes either/);
    expect(() => McpClients.fromConfig(config({ permit: ["a"] }))).toThrow(/permit/);
    expect(() =>
      McpClients.fromConfig({
        mcpServers: { web: { url: "https://mcp.example.com/mcp", context: { deny: ["k"] } } },
      }),
    ).not.toThrow();
  });
});
