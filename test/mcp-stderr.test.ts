// MCP server stderr stays out of what the model reads (security review L2):
// a real stdio server that writes a key to stderr and dies mid-call, and one
// that fails at start. The model gets a one-line failure; the log gets stderr.
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentPlatform,
  defineAgent,
  domainType,
  type LogFields,
  Logger,
  McpClients,
  McpToolFactory,
} from "../src/index.js";
import { fixtureConfig, tempLog } from "./support/mcp-fixture.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every record logged through the default logger until the test ends. */
function capturedLog(): { message: string; fields: LogFields | undefined }[] {
  const records: { message: string; fields: LogFields | undefined }[] = [];
  const record = (message: string, fields?: LogFields) => {
    records.push({ message, fields });
  };
  const previous = Logger.setDefault({ debug: record, info: record, warn: record, error: record });
  cleanups.push(() => {
    Logger.setDefault(previous);
  });
  return records;
}

function clientsFor(servers: Record<string, unknown>): McpClients {
  const clients = McpClients.fromConfig({ mcpServers: servers });
  cleanups.push(() => clients.close());
  return clients;
}

describe("MCP server stderr", () => {
  it("is not in the model's answer when a server dies mid-call; the log has it", async () => {
    const records = capturedLog();
    const { dir, log } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const config = fixtureConfig(log);
    const clients = clientsFor({
      evil: { ...config, env: { ...(config.env as object), FIXTURE_LEAK: "sk-child-SECRET-321" } },
    });
    const crash = await McpToolFactory.create(clients).requiredToolByName("crash");
    const result = await crash.call("{}");
    expect(result.kind).toBe("error");
    expect(result.content).toBe("MCP server 'evil' failed to run tool 'crash': Connection closed");
    expect(result.content).not.toContain("SECRET");
    const logged = records.find((entry) => entry.message.includes("sk-child-SECRET-321"));
    expect(logged?.message).toMatch(/^MCP server 'evil' failed to run tool 'crash'; its stderr ends with:\n/);
    expect(logged?.fields).toEqual({ server: "evil" });
  });

  it("goes to the platform's logger when the call runs inside an agent process", async () => {
    const defaults = capturedLog();
    const records: string[] = [];
    const record = (message: string) => {
      records.push(message);
    };
    const { dir, log } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const config = fixtureConfig(log);
    const clients = clientsFor({
      evil: { ...config, env: { ...(config.env as object), FIXTURE_LEAK: "sk-in-process-SECRET" } },
    });
    const crash = await McpToolFactory.create(clients).requiredToolByName("crash");
    const Ask = domainType("Ask", z.object({ text: z.string() }));
    const Answer = domainType("Answer", z.object({ text: z.string() }));
    const platform = AgentPlatform.create({
      models: {},
      logger: { debug: record, info: record, warn: record, error: record },
    });
    cleanups.push(() => platform.close());
    const agent = platform.deploy(
      defineAgent({
        name: "Crasher",
        description: "Calls a tool that crashes",
        actions: [
          {
            name: "call",
            input: Ask,
            output: Answer,
            achievesGoal: { description: "Answered" },
            run: async () => ({ text: (await crash.call("{}")).content }),
          },
        ],
      }),
    );
    const process = await platform.runAgent(agent, Ask.create({ text: "go" }));
    expect((process.result as { text: string } | undefined)?.text).toBe(
      "MCP server 'evil' failed to run tool 'crash': Connection closed",
    );
    expect(records.join("\n")).toContain("sk-in-process-SECRET");
    expect(defaults.map((entry) => entry.message).join("\n")).not.toContain("sk-in-process-SECRET");
  });

  it("is not in the error of a server that fails to start; the log has it", async () => {
    const records = capturedLog();
    const clients = clientsFor({
      broken: {
        command: process.execPath,
        args: ["-e", "console.error('fatal error: bad key sk-boot-SECRET-9\\nmore detail'); process.exit(1)"],
      },
    });
    const failure = await clients
      .get("broken")
      ?.listTools()
      .catch((error: unknown) => error);
    expect((failure as Error).message).toBe("MCP server 'broken' could not be started: Connection closed");
    expect(records.map((entry) => entry.message).join("\n")).toContain("sk-boot-SECRET-9\nmore detail");
  });
});
