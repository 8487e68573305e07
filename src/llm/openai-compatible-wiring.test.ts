import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolLoop } from "../loop/tool-loop.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { LlmOptions } from "./llm-options.js";
import { ModelRegistry } from "./model-registry.js";

// Proves the provider wiring is real: @ai-sdk/openai-compatible, resolved by id
// through the registry, talks HTTP to an OpenAI-compatible server on 127.0.0.1.

interface ChatRequest {
  readonly model: string;
  readonly stream?: boolean;
  readonly messages: { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[] }[];
  readonly tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
}

const requests: ChatRequest[] = [];
let server: Server;
let baseURL: string;

async function body(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

function completion(message: Record<string, unknown>, finishReason: string) {
  return {
    id: `chatcmpl-${requests.length}`,
    object: "chat.completion",
    created: 0,
    model: "local-model",
    choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason }],
    usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
  };
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return `data: ${JSON.stringify({
    id: "chatcmpl-s",
    object: "chat.completion.chunk",
    created: 0,
    model: "local-model",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      response.writeHead(404).end();
      return;
    }
    const chat = JSON.parse(await body(request)) as ChatRequest;
    requests.push(chat);
    const answered = chat.messages.some((message) => message.role === "tool");
    if (chat.stream) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      if (!answered) {
        response.write(
          chunk({
            tool_calls: [
              {
                index: 0,
                id: "call_s1",
                type: "function",
                function: { name: "get_weather", arguments: '{"location":"Oslo"}' },
              },
            ],
          }),
        );
        response.write(chunk({}, "tool_calls"));
      } else {
        for (const piece of ["Cold ", "in ", "Oslo."]) response.write(chunk({ content: piece }));
        response.write(chunk({}, "stop"));
      }
      response.end("data: [DONE]\n\n");
      return;
    }
    const reply = answered
      ? completion({ content: "It is sunny in Paris." }, "stop")
      : completion(
          {
            content: null,
            tool_calls: [
              {
                id: "call_1",
                type: "function",
                function: { name: "get_weather", arguments: '{"location":"Paris"}' },
              },
            ],
          },
          "tool_calls",
        );
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const weather = Tool.of(
  "get_weather",
  "Current weather for a city",
  InputSchema.of(Param.string("location", "City")),
  ToolMetadata.DEFAULT,
  (input) => ToolResult.text(`Weather for ${(JSON.parse(input) as { location: string }).location}: sunny`),
);

describe("OpenAI-compatible provider wiring", () => {
  it("runs the loop end to end against a local OpenAI-compatible server", async () => {
    requests.length = 0;
    const registry = await ModelRegistry.load({
      models: { local: `openai-compatible:local-model@${baseURL}` },
    });
    const { model, settings } = registry.resolve(LlmOptions.withModel("local").withTemperature(0));
    const result = await runToolLoop({
      model,
      settings,
      prompt: [{ role: "user", content: [{ type: "text", text: "Weather in Paris?" }] }],
      tools: [weather],
    });
    expect(result.text).toBe("It is sunny in Paris.");
    expect(result.usage).toEqual({ inputTokens: 24, outputTokens: 8, totalTokens: 32 });
    expect(requests).toHaveLength(2);
    expect(requests[0]?.model).toBe("local-model");
    expect(requests[0]?.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Current weather for a city",
          parameters: weather.definition.inputSchema.jsonSchema,
        },
      },
    ]);
    const toolMessage = requests[1]?.messages.find((message) => message.role === "tool");
    expect(toolMessage).toMatchObject({ tool_call_id: "call_1", content: "Weather for Paris: sunny" });
  });

  it("streams text and tool calls from the server", async () => {
    requests.length = 0;
    const registry = ModelRegistry.create({
      models: { local: "ollama:local-model" },
      env: { OLLAMA_BASE_URL: baseURL },
    });
    const { model } = await registry.resolveAsync();
    const deltas: string[] = [];
    const result = await runToolLoop({
      model,
      prompt: [{ role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] }],
      tools: [weather],
      onTextDelta: (delta) => deltas.push(delta),
    });
    expect(result.text).toBe("Cold in Oslo.");
    expect(deltas).toEqual(["Cold ", "in ", "Oslo."]);
    expect(requests.every((request) => request.stream === true)).toBe(true);
    expect(requests[1]?.messages.find((message) => message.role === "tool")).toMatchObject({
      tool_call_id: "call_s1",
      content: "Weather for Oslo: sunny",
    });
  });
});
