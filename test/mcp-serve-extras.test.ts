import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_MAIN } from "./support/cli.js";
import { ensureBuilt } from "./support/dist.js";
import { mcpServeUrl } from "./support/mcp-serve-url.js";

// `embabel-ts mcp-serve --http 0 --scripted` (the built command) used by the
// official SDK client: agent prompts, last-result resources, progress.

const cwd = mkdtempSync(join(tmpdir(), "embabel-mcp-serve-extras-"));
let child: ChildProcessWithoutNullStreams;
let url: string;

beforeAll(async () => {
  ensureBuilt();
  child = spawn(process.execPath, [CLI_MAIN, "mcp-serve", "--http", "0", "--scripted"], {
    cwd,
    env: { PATH: process.env.PATH ?? "" },
  });
  url = await mcpServeUrl(child);
}, 180_000);
afterAll(() => {
  child?.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

async function connect(): Promise<Client> {
  const client = new Client({ name: "extras-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("embabel-ts mcp-serve --http: prompts, resources, progress", () => {
  it("serves each agent's description as a prompt named like its tool", async () => {
    const client = await connect();
    try {
      const { prompts } = await client.listPrompts();
      const { tools } = await client.listTools();
      // Every agent tool has its prompt; respond_to_request (answers waits) is no agent.
      const agentTools = tools.map((tool) => tool.name).filter((name) => name !== "respond_to_request");
      expect(agentTools).toHaveLength(tools.length - 1);
      expect(prompts.map((prompt) => prompt.name).sort()).toEqual(agentTools.sort());
      const starNews = tools.find((tool) => tool.name === "StarNewsWriter");
      const prompt = await client.getPrompt({
        name: "StarNewsWriter",
        arguments: { input: "Lynda, a Scorpio" },
      });
      expect(prompt.messages[0]?.content).toEqual({
        type: "text",
        text: `${starNews?.description}\n\nUse the tool 'StarNewsWriter' for this with this input: Lynda, a Scorpio.`,
      });
      await expect(client.getPrompt({ name: "NoSuchAgent" })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  it("keeps an agent's last result as a resource, and sends its progress when asked", async () => {
    const client = await connect();
    try {
      const uri = "embabel://agents/StarNewsWriter/last-result";
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toContain(uri);
      expect((await client.readResource({ uri })).contents).toEqual([
        { uri, mimeType: "text/plain", text: "" },
      ]);
      const progress: { progress: number; message?: string }[] = [];
      const result = await client.request(
        {
          method: "tools/call",
          params: {
            name: "StarNewsWriter",
            arguments: { content: "Lynda, a Scorpio" },
            _meta: { progressToken: "p1" },
          },
        },
        CallToolResultSchema,
        { onprogress: (update) => progress.push(update) },
      );
      const text = (result.content[0] as { text: string }).text;
      expect(result.isError).toBeFalsy();
      expect(progress.length).toBeGreaterThan(0);
      const values = progress.map((update) => update.progress);
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(progress.some((update) => /^Running action /.test(update.message ?? ""))).toBe(true);
      expect((await client.readResource({ uri })).contents).toEqual([{ uri, mimeType: "text/plain", text }]);
      await expect(client.readResource({ uri: "embabel://agents/Nope/last-result" })).rejects.toMatchObject({
        code: -32602,
      });
    } finally {
      await client.close();
    }
  });
});
