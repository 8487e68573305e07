import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentPlatform } from "../platform/agent-platform.js";
import { HashEmbeddingModel, ScriptedModel } from "../testing/index.js";
import { InputSchema } from "../tool/input-schema.js";
import type { Logger } from "../tool/logger.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { UnfoldingTool } from "./unfolding-tool.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tool(name: string, description: string, ...params: string[]): Tool {
  const schema = InputSchema.of(...params.map((param) => Param.string(param, param, { required: false })));
  return Tool.create(name, description, schema, () => ToolResult.text(`${name} ran`));
}

const catalogue = [
  tool("slack_post_message", "Post a new message to a Slack channel", "channel_id", "text"),
  tool("create_issue", "Create a new issue in a GitHub repository", "owner", "repo", "title"),
  tool("read_file", "Read the complete contents of a file", "path"),
  tool("get_current_time", "Get current time in a specific timezone", "timezone"),
];

/** A hash embedding model with its own id, so the shared embedding cache never carries over between tests. */
let models = 0;
function embeddingModel(options: { error?: unknown } = {}): HashEmbeddingModel {
  models += 1;
  return new HashEmbeddingModel({ dimensions: 64, modelId: `hybrid-test-${models}`, ...options });
}

function captureLogger(lines: string[]): Logger {
  const log = (message: string) => lines.push(message);
  return { debug: () => {}, info: () => {}, warn: log, error: log };
}

describe("UnfoldingTool.searchable with the platform's embedding model", () => {
  it("ranks through OperationContext.embed's path in the loop: the catalogue embedded once, then one query per search", async () => {
    const embeddings = embeddingModel();
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("find_tools", { query: "post a message to slack", limit: 1 }),
      ScriptedModel.toolCall("slack_post_message", { channel_id: "C1", text: "hi" }),
      ScriptedModel.toolCall("find_tools", { query: "current time in a timezone", limit: 1 }),
      ScriptedModel.text("done"),
    );
    const platform = AgentPlatform.create({
      models: { default: model },
      embeddingModels: { default: embeddings },
    });
    const search = UnfoldingTool.searchable("find_tools", "Find tools", catalogue);
    const process = await platform.runInProcess((context) =>
      context.ai().withTool(search).generateText("Tell the team, then tell me the time"),
    );
    expect(process.status).toBe("completed");
    expect(process.result).toBe("done");
    expect(model.toolNamesPerRequest).toEqual([
      ["find_tools"],
      ["find_tools", "slack_post_message"],
      ["find_tools", "slack_post_message"],
      ["find_tools", "slack_post_message", "get_current_time"],
    ]);
    expect(embeddings.requests.map((texts) => texts.length)).toEqual([4, 1, 1]);
    expect(embeddings.requests[0]?.[0]).toBe(
      "slack_post_message: Post a new message to a Slack channel (parameters: channel_id, text)",
    );
    expect(embeddings.requests[2]).toEqual(["current time in a timezone"]);
    expect(process.embeddingInvocations).toBe(3);
  });

  it("finds by vector similarity a tool that shares no search term with the query", async () => {
    // Every word of the query is a stop word for BM25, but the hash embedding keeps them all.
    const faq = tool("faq", "What about them, and what about it");
    const platform = AgentPlatform.create({ models: {}, embeddingModels: { default: embeddingModel() } });
    const hybrid = UnfoldingTool.searchable("find_tools", "Find tools", [...catalogue, faq]);
    const lexical = UnfoldingTool.searchable("find_tools", "Find tools", [...catalogue, faq], {
      ranking: "lexical",
    });
    const query = '{"query":"what about them"}';
    const found = await platform.runInProcess(() => hybrid.call(query));
    const notFound = await platform.runInProcess(() => lexical.call(query));
    expect((found.result as ToolResult).content).toContain("- faq: What about them, and what about it");
    expect((notFound.result as ToolResult).content).toMatch(/^No tools matched "what about them"/);
  });

  it("embeds the catalogue once when two searches start together", async () => {
    const embeddings = embeddingModel();
    const platform = AgentPlatform.create({ models: {}, embeddingModels: { default: embeddings } });
    const search = UnfoldingTool.searchable("find_tools", "Find tools", catalogue);
    await platform.runInProcess(() =>
      Promise.all([search.call('{"query":"slack"}'), search.call('{"query":"github issue"}')]),
    );
    expect(embeddings.requests.filter((texts) => texts.length === 4)).toHaveLength(1);
  });

  it("stays lexical with ranking: 'lexical', embedding nothing", async () => {
    const embeddings = embeddingModel();
    const platform = AgentPlatform.create({ models: {}, embeddingModels: { default: embeddings } });
    const search = UnfoldingTool.searchable("find_tools", "Find tools", catalogue, { ranking: "lexical" });
    const process = await platform.runInProcess(() => search.call('{"query":"read a file","limit":1}'));
    expect((process.result as ToolResult).content).toContain("- read_file:");
    expect(embeddings.requests).toEqual([]);
  });

  it("keeps embeddings in the cache file and reuses them from it", async () => {
    const folder = mkdtempSync(join(tmpdir(), "embabel-search-"));
    folders.push(folder);
    const file = join(folder, "cache", "tools.json");
    const embeddings = embeddingModel();
    const platform = AgentPlatform.create({ models: {}, embeddingModels: { default: embeddings } });
    const search = UnfoldingTool.searchable("find_tools", "Find tools", catalogue, {
      embeddingCacheFile: file,
    });
    await platform.runInProcess(() => search.call('{"query":"github issue"}'));
    expect(existsSync(file)).toBe(true);
    const stored = JSON.parse(readFileSync(file, "utf8")) as Record<string, number[]>;
    expect(Object.keys(stored)).toHaveLength(4);
    const [modelKey, hash] = (Object.keys(stored)[0] ?? "").split("\u0000");
    expect(modelKey).toMatch(/^default:embabel-ts\.hash\/hybrid-test-\d+$/);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.values(stored)[0]).toHaveLength(64);
  });

  it("falls back to words only when the embedding model fails, and warns through the platform's logger", async () => {
    const lines: string[] = [];
    const platform = AgentPlatform.create({
      models: {},
      embeddingModels: { default: embeddingModel({ error: new Error("provider down") }) },
      logger: captureLogger(lines),
    });
    const search = UnfoldingTool.searchable("find_tools", "Find tools", catalogue);
    const process = await platform.runInProcess(() => search.call('{"query":"slack message","limit":1}'));
    expect((process.result as ToolResult).content).toContain("- slack_post_message:");
    expect(lines).toEqual(["Tool search could not embed; ranking by words only."]);
  });

  it("names an unknown embedding model chosen in the options", async () => {
    const platform = AgentPlatform.create({ models: {}, embeddingModels: { default: embeddingModel() } });
    const search = UnfoldingTool.searchable("find_tools", "Find tools", catalogue, {
      embeddingModel: { model: "missing" },
    });
    const process = await platform.runInProcess(() => search.call('{"query":"slack"}'));
    expect(process.status).toBe("failed");
    expect(String(process.failure)).toContain("Unknown embedding model 'missing'");
  });
});

describe("hybrid tool search and the per-server cap", () => {
  it("caps the fused ranking: one server fills at most 2 of 5 unless the query names it", async () => {
    const on = (server: string, name: string, description: string): Tool =>
      tool(name, description).withDefinitionMetadata({ mcpServer: server });
    const spam = ["a", "b", "c", "d", "e"].map((letter) =>
      on("spam", `spam_${letter}`, "invoice payment invoice"),
    );
    const others = [
      on("billing", "create_invoice", "Create an invoice"),
      on("ledger", "list_invoices", "List invoices"),
      on("accounts", "export_invoices", "Export invoices"),
    ];
    const platform = AgentPlatform.create({ models: {}, embeddingModels: { default: embeddingModel() } });
    const search = UnfoldingTool.searchable("find_tools", "Find tools", [...spam, ...others, ...catalogue]);
    const found = async (query: string): Promise<string[]> => {
      let names: string[] = [];
      const process = await platform.runInProcess(async () => {
        const answer = await search.call(JSON.stringify({ query, limit: 5 }));
        names = [...answer.content.matchAll(/^- ([^:]+):/gm)].map((match) => match[1] as string);
      });
      expect(process.status).toBe("completed");
      return names;
    };
    const unnamed = await found("invoice payment");
    expect(unnamed).toHaveLength(5);
    expect(unnamed.filter((name) => name.startsWith("spam_"))).toHaveLength(2);
    // Its further matches follow the other servers' (a result is never shorter than the matches).
    expect(unnamed).toEqual(expect.arrayContaining(["create_invoice", "list_invoices", "export_invoices"]));
    const named = await found("spam invoice payment");
    expect(named.filter((name) => name.startsWith("spam_")).length).toBeGreaterThan(2);
    await platform.close();
  });
});
