// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentPlatform,
  createMcpServer,
  defineAgent,
  domainType,
  McpClients,
  McpToolFactory,
  serveMcpOverHttp,
  Tool,
  ToolCallContext,
  ToolResult,
} from "../src/index.js";
import { logLines, startHttpFixture, tempLog } from "./support/mcp-fixture.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function httpFixture() {
  const { dir, log } = tempLog();
  const { url, child } = await startHttpFixture(log);
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => {
      child.kill("SIGKILL");
    },
  );
  return { url, child, log };
}

function clientsFor(servers: Record<string, unknown>, env: Record<string, string> = {}): McpClients {
  const clients = McpClients.fromConfig({ mcpServers: servers }, { env });
  cleanups.push(() => clients.close());
  return clients;
}

describe("MCP over Streamable HTTP", () => {
  it("calls a server's tools with headers from the environment and the context as _meta", async () => {
    const { url, log } = await httpFixture();
    const clients = clientsFor(
      { remote: { type: "http", url, headers: { Authorization: "Bearer ${env:TOKEN}" } } },
      { TOKEN: "t-1" },
    );
    const factory = McpToolFactory.create(clients);
    const echo = await factory.requiredToolByName("echo");
    expect(await echo.call('{"text":"over http"}')).toEqual(ToolResult.text("over http"));
    const metaEcho = await factory.requiredToolByName("meta_echo");
    const result = await metaEcho.call("{}", ToolCallContext.of({ traceId: "abc" }));
    expect(JSON.parse(result.content)).toEqual({ traceId: "abc" });
    expect(logLines(log)).toContain("auth Bearer t-1");
  });

  it("answers in-band, well before the timeout, when the server dies mid-call", async () => {
    const { url, child } = await httpFixture();
    const clients = clientsFor({ remote: { url, timeoutMs: 20_000 } });
    const slow = await McpToolFactory.create(clients).requiredToolByName("slow");
    const started = Date.now();
    const call = slow.call('{"ms":15000}');
    setTimeout(() => child.kill("SIGKILL"), 300);
    const result = await call;
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^MCP server 'remote' failed to run tool 'slow'/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("reconnects on the next call once a server that went away is back", async () => {
    const { dir, log } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = await startHttpFixture(log);
    cleanups.push(() => {
      first.child.kill("SIGKILL");
    });
    const clients = clientsFor({ remote: { url: first.url, timeoutMs: 10_000 } });
    const echo = await McpToolFactory.create(clients).requiredToolByName("echo");
    expect((await echo.call('{"text":"one"}')).content).toBe("one");
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;
    const down = await echo.call('{"text":"two"}');
    expect(down.kind).toBe("error");
    expect(down.content).toMatch(/^MCP server 'remote' failed to run tool 'echo': .*fetch failed/);
    const second = await startHttpFixture(log, Number(new URL(first.url).port));
    cleanups.push(() => {
      second.child.kill("SIGKILL");
    });
    expect((await echo.call('{"text":"three"}')).content).toBe("three");
  });

  it("names the variable a config lacks", () => {
    expect(() =>
      McpClients.fromConfig({ mcpServers: { remote: { url: "${BASE}/mcp" } } }, { env: {} }),
    ).toThrow("mcpServers.remote.url uses ${BASE}, but the environment variable BASE is not set.");
  });
});

const Question = domainType("Question", z.object({ text: z.string().describe("The question") }));

describe("createMcpServer", () => {
  async function serve(options: Parameters<typeof createMcpServer>[0]) {
    const endpoint = await serveMcpOverHttp(() => createMcpServer(options));
    cleanups.push(() => endpoint.close());
    return McpToolFactory.create(clientsFor({ ours: { url: endpoint.url } }));
  }

  it("serves our tools with their definitions, errors and throws as isError, _meta as the call's context", async () => {
    const seen: unknown[] = [];
    const tools = [
      Tool.create(
        "whoami",
        "Says which tenant called",
        Tool.InputSchema.of(Tool.Parameter.string("greeting", "How to greet")),
        async (input, context) => {
          seen.push(context?.toRecord());
          return ToolResult.text(`${JSON.parse(input).greeting}, ${context?.get("tenantId") ?? "nobody"}`);
        },
      ),
      Tool.create("soft", "Fails softly", async () => ToolResult.error("soft failure")),
      Tool.create("hard", "Throws", async () => {
        throw new Error("hard failure");
      }),
    ];
    const factory = await serve({ name: "ours", version: "1.2.3", tools });
    const whoami = await factory.requiredToolByName("whoami");
    expect(whoami.definition.description).toBe("Says which tenant called");
    expect(whoami.definition.inputSchema.jsonSchema).toMatchObject({
      properties: { greeting: { type: "string", description: "How to greet" } },
      required: ["greeting"],
    });
    expect((await whoami.call('{"greeting":"Hi"}', ToolCallContext.of({ tenantId: "acme" }))).content).toBe(
      "Hi, acme",
    );
    expect(seen).toEqual([{ tenantId: "acme" }]);
    expect(await (await factory.requiredToolByName("soft")).call("{}")).toMatchObject({
      kind: "error",
      content: "soft failure",
    });
    expect(await (await factory.requiredToolByName("hard")).call("{}")).toMatchObject({
      kind: "error",
      content: "hard failure",
    });
  });

  it("serves each deployed agent as a tool taking its input type and returning its result", async () => {
    const platform = AgentPlatform.create({ models: {} });
    platform.deploy(
      defineAgent({
        name: "Answerer",
        description: "Answers questions",
        actions: [
          {
            name: "answer",
            input: Question,
            output: domainType("Answer", z.object({ text: z.string() })),
            achievesGoal: { description: "Answered" },
            run: (question: { text: string }) => ({ text: `re: ${question.text}` }),
          },
        ],
      }),
    );
    const factory = await serve({ name: "agents", platform });
    const answerer = await factory.requiredToolByName("Answerer");
    expect(answerer.definition.description).toBe("Answers questions");
    expect(answerer.definition.inputSchema.jsonSchema).toMatchObject({
      properties: { text: { type: "string", description: "The question" } },
    });
    expect((await answerer.call('{"text":"why?"}')).content).toBe('{"text":"re: why?"}');
    const bad = await answerer.call('{"text":42}');
    expect(bad.kind).toBe("error");
    expect(bad.content).toMatch(/^BAD INPUT ERROR parsing tool input/);
  });
});
