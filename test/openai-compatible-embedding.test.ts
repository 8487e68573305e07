import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentPlatform, type AgentProcess, AgentProcessTools } from "../src/index.js";

// Proves the embedding wiring is real: @ai-sdk/openai-compatible's embedding
// model talks HTTP to an OpenAI-compatible server on 127.0.0.1, and the call
// is counted on the process that made it, as process_cost reports.

interface EmbeddingRequest {
  readonly model: string;
  readonly input: string[];
  readonly encoding_format?: string;
}

const requests: EmbeddingRequest[] = [];
let server: Server;
let baseURL: string;

async function body(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/v1/embeddings") {
      response.writeHead(404).end();
      return;
    }
    const embedding = JSON.parse(await body(request)) as EmbeddingRequest;
    requests.push(embedding);
    if (embedding.model === "overloaded") {
      response
        .writeHead(503, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "model overloaded", type: "server_error" } }));
      return;
    }
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        object: "list",
        model: embedding.model,
        data: embedding.input.map((text, index) => ({
          object: "embedding",
          index,
          embedding: [text.length, words(text), index],
        })),
        usage: {
          prompt_tokens: embedding.input.reduce((sum, text) => sum + words(text), 0),
          total_tokens: 0,
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function platform(modelId: string): AgentPlatform {
  const provider = createOpenAICompatible({ name: "local", baseURL });
  return AgentPlatform.create({
    models: {},
    embeddingModels: { default: provider.embeddingModel(modelId) },
    prices: { "local-embed": { inputPerMillion: 1000, outputPerMillion: 0 } },
  });
}

async function report(process: AgentProcess, tool: string): Promise<string> {
  const inner = AgentProcessTools.create().innerTools.find((candidate) => candidate.definition.name === tool);
  return (await process.runWithin(() => inner?.call("{}")))?.content ?? "";
}

describe("embeddings through @ai-sdk/openai-compatible", () => {
  it("embeds over HTTP and records the call on the process", async () => {
    requests.length = 0;
    const process = await platform("local-embed").runInProcess((context) =>
      context.embed(["hello world", "three little words"]),
    );
    expect(process.status).toBe("completed");
    expect(process.result).toEqual([
      [11, 2, 0],
      [18, 3, 1],
    ]);
    expect(requests).toEqual([
      { model: "local-embed", input: ["hello world", "three little words"], encoding_format: "float" },
    ]);
    expect(await report(process, "process_cost")).toBe(
      [
        "Cost and Usage:",
        "",
        "Total cost: $0.005000",
        "LLM invocations: 0",
        "Embedding invocations: 1",
        "",
        "Tokens used:",
        "  Prompt tokens: 5",
        "  Completion tokens: 0",
        "  Total tokens: 5",
      ].join("\n"),
    );
    expect(await report(process, "process_models")).toBe(
      "Models used (1):\n\n- local-embed (local.embedding)",
    );
  });

  it("fails the process with the server's error and records no call", async () => {
    requests.length = 0;
    const process = await platform("overloaded").runInProcess((context) => context.embed(["x"]));
    expect(process.status).toBe("failed");
    expect(process.statusReason).toContain("model overloaded");
    expect(process.embeddingInvocations).toBe(0);
    expect(requests).toHaveLength(1);
  });
});
