import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentPlatform,
  defineAgent,
  domainType,
  ListOutputChannel,
  McpClients,
  McpResourceReference,
  McpToolFactory,
  McpToolGroup,
  ProcessOptions,
} from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";

// The client side of what MCP servers ask of a client: elicitation, sampling,
// roots, progress and logging, and its resources and prompts, against a real
// SDK server over stdio (test/fixtures/mcp/client-features-server.mjs).

const SERVER = fileURLToPath(new URL("./fixtures/mcp/client-features-server.mjs", import.meta.url));
const opened: { close(): Promise<void> }[] = [];

function clients(extra: Record<string, unknown> = {}): McpClients {
  const made = McpClients.fromConfig({
    mcpServers: { features: { command: process.execPath, args: [SERVER], ...extra } },
  });
  opened.push(made);
  return made;
}

async function call(mcp: McpClients, tool: string): Promise<string> {
  const result = await (await McpToolFactory.create(mcp).requiredToolByName(tool)).call("{}");
  return result.kind === "error" ? `error: ${result.content}` : String(result.content);
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

describe("MCP elicitation", () => {
  it("answers with the configured handler and fills in the schema's defaults", async () => {
    const seen: string[] = [];
    const mcp = clients({
      onElicitation: (request: { message: string }) => {
        seen.push(request.message);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    expect(JSON.parse(await call(mcp, "ask_name"))).toEqual({
      action: "accept",
      content: { name: "Ada", city: "Oslo" },
    });
    expect(seen).toEqual(["Your name?"]);
  });

  it("declines without a handler outside an agent process", async () => {
    expect(JSON.parse(await call(clients(), "ask_name"))).toEqual({ action: "decline" });
  });

  it("becomes a form request of the agent process, answered with platform.respond", async () => {
    const platform = AgentPlatform.create({
      models: { default: ScriptedModel.of() },
      mcpServers: { features: { command: process.execPath, args: [SERVER] } },
    });
    opened.push(platform);
    const tool = await McpToolFactory.create(platform.mcpClients).requiredToolByName("ask_name");
    const answers: string[] = [];
    const Start = domainType("Start", z.object({ go: z.boolean() }));
    const Done = domainType("Done", z.object({ answer: z.string() }));
    const agent = defineAgent({
      name: "Asker",
      description: "Calls a tool that elicits",
      actions: [
        {
          name: "ask",
          input: Start,
          output: Done,
          achievesGoal: { description: "Asked" },
          run: async () => {
            const result = await tool.call("{}");
            answers.push(String(result.content));
            return { answer: String(result.content) };
          },
        },
      ],
    });
    const run = await platform.runAgent(agent, { go: true });
    expect(run.status, run.statusReason).toBe("waiting");
    const [request] = run.awaiting;
    expect(request).toMatchObject({ kind: "form", title: "MCP server 'features' asks: Your name?" });
    const done = await platform.respond(run.id, request!.id, { name: "Grace" });
    expect(done.status).toBe("completed");
    expect(JSON.parse(answers.at(-1) ?? "{}")).toEqual({
      action: "accept",
      content: { name: "Grace", city: "Oslo" },
    });
  });
});

describe("MCP sampling", () => {
  it("is answered by the platform's model for the configured role", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("hi there"));
    const platform = AgentPlatform.create({
      models: { cheap: model },
      roles: { default: "cheap", fast: "cheap" },
      mcpServers: { features: { command: process.execPath, args: [SERVER], sampling: { role: "fast" } } },
    });
    opened.push(platform);
    // Sampling is answered during tool calls of agent processes (whose budget pays for it).
    let answer = "";
    await platform.runInProcess(async () => {
      answer = await call(platform.mcpClients, "summarise");
    });
    expect(answer).toBe("cheap: hi there");
    expect(model.requests).toHaveLength(1);
  });

  it("is not offered unless enabled", async () => {
    expect(await call(clients(), "summarise")).toMatch(/^error: .*Method not found/);
  });
});

describe("MCP roots", () => {
  it("are declared and listed as configured", async () => {
    const mcp = clients({ roots: ["/srv/project", { uri: "file:///tmp/x", name: "scratch" }] });
    expect(JSON.parse(await call(mcp, "roots"))).toEqual([
      { uri: "file:///srv/project", name: "project" },
      { uri: "file:///tmp/x", name: "scratch" },
    ]);
  });
});

describe("MCP progress and logging", () => {
  it("reach the output channel of the process the call runs in", async () => {
    const platform = AgentPlatform.create({
      models: { default: ScriptedModel.of() },
      mcpServers: { features: { command: process.execPath, args: [SERVER] } },
    });
    opened.push(platform);
    const tool = await McpToolFactory.create(platform.mcpClients).requiredToolByName("work");
    const channel = new ListOutputChannel();
    let out = "";
    const run = await platform.runInProcess(
      async () => {
        out = String((await tool.call("{}")).content);
      },
      {
        processOptions: ProcessOptions.DEFAULT.withOutputChannel(channel),
      },
    );
    expect(run.status).toBe("completed");
    expect(out).toBe("done");
    expect(channel.messages("progress")).toContain("MCP server 'features' progress 1/2: half way");
    expect(channel.messages("logging")).toContain("MCP server 'features' (worker): disk almost full");
  });
});

describe("MCP resources and prompts", () => {
  it("offers <role>_read_resource in a group with resources, listing what exists", async () => {
    const group = McpToolGroup.create({
      role: "docs",
      description: "Docs",
      clients: clients(),
      resources: true,
    });
    const tool = (await group.tools()).find((each) => each.definition.name === "docs_read_resource");
    expect(tool?.definition.description).toContain("docs://guide");
    expect(tool?.definition.description).toContain("docs://logo");
    expect((await tool!.call('{"uri":"docs://guide"}')).content).toBe("# Guide\nWrite short sentences.");
    expect((await tool!.call('{"uri":"docs://logo"}')).content).toMatch(/^\[binary image\/png, \d+ bytes/);
    const unknown = await tool!.call('{"uri":"docs://nope"}');
    expect(unknown.kind).toBe("error");
    expect(unknown.content).toContain("Unknown resource 'docs://nope'. Available resources:");
  });

  it("attaches the resources as an LlmReference", async () => {
    const reference = await McpResourceReference.create(clients(), { name: "style" });
    expect(reference.notes()).toContain("docs://guide");
    expect(reference.tools().map((tool) => tool.definition.name)).toEqual(["read_resource"]);
  });

  it("fills in a server's prompt with mcpClients.prompt", async () => {
    const prompt = await clients().prompt("features", "review", { language: "Go" });
    expect(prompt.messages).toEqual([{ role: "user", content: "Review this Go code." }]);
    expect(prompt.text).toBe("Review this Go code.");
  });
});

describe("McpClients.finishAuth", () => {
  it("is a ConfigurationError for a server without an authorization-code flow, or an unknown server", async () => {
    const mcp = clients();
    await expect(mcp.finishAuth("features", "code")).rejects.toThrow(
      "MCP server 'features' has no OAuth authorization-code flow to finish: configure oauth.redirectUrl or an authProvider.",
    );
    await expect(mcp.finishAuth("nope", "code")).rejects.toThrow("No MCP server named 'nope'");
  });
});
