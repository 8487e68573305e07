import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError } from "@ai-sdk/provider";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { memoryTerminal } from "../src/cli/terminal.js";
import {
  AgentPlatform,
  type AgentProcessEvent,
  ProcessOptions,
  parseTrace,
  TraceRecorder,
  TraceSink,
  TraceTree,
  traceRenderer,
} from "../src/index.js";

// Model-call retries through the real @ai-sdk/openai-compatible provider,
// against an OpenAI-compatible server on 127.0.0.1 that answers each request
// with the next scripted reply: 429s, 5xx, 401s, dropped connections, then a
// valid chat completion.

type Reply =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly message?: string }
  | "ok"
  | "stream"
  | "drop"
  | { readonly message: Record<string, unknown>; readonly finish: string };

let server: Server;
let baseURL: string;
let script: Reply[] = [];
let requests = 0;

function completion(): string {
  return JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-test",
    choices: [
      { index: 0, message: { role: "assistant", content: "Hello after all" }, finish_reason: "stop" },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
  });
}

function completionWith(message: Record<string, unknown>, finish: string): string {
  return JSON.stringify({
    id: "chatcmpl-2",
    object: "chat.completion",
    created: 1,
    model: "gpt-test",
    choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  });
}

function streamed(response: ServerResponse): void {
  response.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "gpt-test", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  response.end(
    `${chunk({ role: "assistant", content: "Hello " })}${chunk({ content: "streamed" })}${chunk({}, "stop")}data: [DONE]\n\n`,
  );
}

async function drain(request: IncomingMessage): Promise<void> {
  for await (const _chunk of request);
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    await drain(request);
    requests += 1;
    const reply = script.shift() ?? "ok";
    if (reply === "drop") {
      request.socket.destroy();
      return;
    }
    if (reply === "ok") {
      response.writeHead(200, { "content-type": "application/json" }).end(completion());
      return;
    }
    if (reply === "stream") {
      streamed(response);
      return;
    }
    if (!("status" in reply)) {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(completionWith(reply.message, reply.finish));
      return;
    }
    response
      .writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
      .end(JSON.stringify({ error: { message: reply.message ?? `status ${reply.status}`, type: "error" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  script = [];
  requests = 0;
});

function platform(options: { maxRetries?: number } = {}): AgentPlatform {
  const provider = createOpenAICompatible({ name: "local", baseURL });
  return AgentPlatform.create({ models: { main: provider.chatModel("gpt-test") }, ...options });
}

const rateLimited: Reply = {
  status: 429,
  headers: { "retry-after": "1" },
  message: "Rate limit reached for gpt-test. Please try again in 1s.",
};

describe("model call retries", () => {
  it("waits as a 429's retry-after says, tries again, and shows the retry in the process, the CLI tree and the trace", async () => {
    script = [rateLimited, "ok"];
    const events: AgentProcessEvent[] = [];
    const lines: string[] = [];
    const tree = traceRenderer({ write: (line) => lines.push(line) });
    const traceLines: string[] = [];
    const recorder = new TraceRecorder(TraceSink.lines((line) => traceLines.push(line)));
    const options = recorder
      .attach(ProcessOptions.DEFAULT)
      .withListener(tree.listener)
      .withListener((event) => events.push(event));
    const started = performance.now();
    const process = await platform().runInProcess((context) => context.ai().generateText("Hi"), {
      processOptions: options,
    });
    const took = performance.now() - started;
    recorder.close();

    expect(process.status).toBe("completed");
    expect(process.result).toBe("Hello after all");
    expect(requests).toBe(2);
    expect(took).toBeGreaterThanOrEqual(990);
    expect(process.llmRetries).toBe(1);
    expect(process.llmInvocations).toBe(1);
    expect(process.usage.totalTokens).toBe(8);
    const retry = events.find((event) => event.type === "llm-call-retry");
    expect(retry).toMatchObject({
      attempt: 2,
      maxAttempts: 3,
      delayMs: 1000,
      reason: "429",
      statusCode: 429,
      message: "Rate limit reached for gpt-test. Please try again in 1s.",
    });
    expect(lines).toContain("  ↻ retrying in 1.0 s after 429 (attempt 2 of 3)");
    expect(tree.summary()).toContain("1 LLM retry");
    const view = new TraceTree(parseTrace(traceLines.join("\n"))).view();
    expect(view.totals.llmRetries).toBe(1);
    const llm = view.roots[0]?.children.find((node) => node.kind === "llm");
    expect(llm?.kind === "llm" && llm.retries).toEqual([
      { attempt: 2, maxAttempts: 3, delayMs: 1000, reason: "429" },
    ]);
  });

  it("retries a 500 with exponential backoff and jitter when the server names no wait", async () => {
    script = [{ status: 500, message: "Internal Server Error" }, "ok"];
    const events: AgentProcessEvent[] = [];
    const process = await platform().runInProcess((context) => context.ai().generateText("Hi"), {
      processOptions: ProcessOptions.DEFAULT.withListener((event) => events.push(event)),
    });
    expect(process.result).toBe("Hello after all");
    expect(requests).toBe(2);
    const retry = events.find((event) => event.type === "llm-call-retry");
    // The first backoff is 2 s, jittered to between half and all of it.
    expect(retry).toMatchObject({ reason: "500", attempt: 2 });
    const delayMs = retry?.type === "llm-call-retry" ? retry.delayMs : -1;
    expect(delayMs).toBeGreaterThanOrEqual(1000);
    expect(delayMs).toBeLessThanOrEqual(2000);
  }, 10_000);

  it("retries a dropped connection (the provider's retryable connection error)", async () => {
    script = ["drop", "ok"];
    const answer = await platform().ai().generateText("Hi");
    expect(answer).toBe("Hello after all");
    expect(requests).toBe(2);
  }, 10_000);

  it("retries a streamed call whose request was refused before any text arrived", async () => {
    script = [{ ...rateLimited, headers: { "retry-after-ms": "20" } }, "stream"];
    const deltas: string[] = [];
    const stream = platform().ai().streamText("Hi");
    for await (const delta of stream) deltas.push(delta);
    expect(deltas.join("")).toBe("Hello streamed");
    expect(requests).toBe(2);
  });

  it("does not retry a 401: the provider's error at once, after one request", async () => {
    script = [{ status: 401, message: "Incorrect API key provided" }];
    const started = performance.now();
    const error = await platform()
      .ai()
      .generateText("Hi")
      .catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(401);
    expect((error as APICallError).message).toBe("Incorrect API key provided");
    expect(requests).toBe(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("gives the provider's own error once maxRetries are spent", async () => {
    const overloaded: Reply = { status: 503, headers: { "retry-after-ms": "10" }, message: "overloaded" };
    script = [overloaded, overloaded, overloaded];
    const error = await platform()
      .ai()
      .withMaxRetries(1)
      .generateText("Hi")
      .catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(503);
    expect(requests).toBe(2);
  });

  it("fails the process with the provider's error once retries are spent, counting each retry", async () => {
    const overloaded: Reply = { status: 503, headers: { "retry-after-ms": "10" }, message: "overloaded" };
    script = [overloaded, overloaded, overloaded];
    const process = await platform().runInProcess((context) => context.ai().generateText("Hi"));
    expect(process.status).toBe("failed");
    expect(process.statusReason).toContain("overloaded");
    expect(process.llmRetries).toBe(2);
    expect(requests).toBe(3);
  });

  it("does not retry when the provider asks to wait more than 60 s", async () => {
    script = [{ status: 429, headers: { "retry-after": "3600" }, message: "daily quota spent" }];
    const error = await platform()
      .ai()
      .generateText("Hi")
      .catch((caught: unknown) => caught);
    expect((error as APICallError).statusCode).toBe(429);
    expect(requests).toBe(1);
  });

  it("ends at once when aborted during a backoff wait", async () => {
    script = [{ status: 429, headers: { "retry-after": "30" } }];
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error("user cancelled")), 100);
    const error = await platform()
      .ai()
      .generateText("Hi", { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe("user cancelled");
    expect(performance.now() - started).toBeLessThan(2000);
    expect(requests).toBe(1);
  });

  it("kills a process at once while it waits to retry", async () => {
    script = [{ status: 429, headers: { "retry-after": "30" } }];
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error("Killed")), 200);
    const process = await platform().runInProcess((context) => context.ai().generateText("Hi"), {
      signal: controller.signal,
    });
    expect(process.status).toBe("killed");
    expect(process.llmRetries).toBe(1);
    expect(requests).toBe(1);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("takes maxRetries from the platform, then the process options; the runner's wins", async () => {
    script = [rateLimited];
    const none = await platform({ maxRetries: 0 })
      .ai()
      .generateText("Hi")
      .catch((caught: unknown) => caught);
    expect((none as APICallError).statusCode).toBe(429);
    expect(requests).toBe(1);

    requests = 0;
    script = [rateLimited];
    const process = await platform().runInProcess((context) => context.ai().generateText("Hi"), {
      processOptions: ProcessOptions.DEFAULT.withMaxRetries(0),
    });
    expect(process.status).toBe("failed");
    expect(requests).toBe(1);

    requests = 0;
    script = [{ ...rateLimited, headers: { "retry-after-ms": "10" } }, "ok"];
    const retried = await platform().runInProcess(
      (context) => context.ai().withMaxRetries(1).generateText("Hi"),
      { processOptions: ProcessOptions.DEFAULT.withMaxRetries(0) },
    );
    expect(retried.result).toBe("Hello after all");
    expect(retried.llmRetries).toBe(1);
    expect(requests).toBe(2);
  });

  it("refuses a maxRetries that is not an integer >= 0", () => {
    expect(() => platform().ai().withMaxRetries(-1)).toThrow(/maxRetries must be an integer >= 0/);
    expect(() => platform({ maxRetries: 1.5 })).toThrow(/maxRetries must be an integer >= 0/);
    expect(() => ProcessOptions.DEFAULT.withMaxRetries(Number.NaN)).toThrow(/maxRetries/);
  });
});

describe("embabel-ts run on a rate-limited provider", () => {
  it("retries the 429, shows it in the tree and completes (it used to fail after one request)", async () => {
    script = [
      rateLimited,
      { message: { content: '{"name":"Lynda","sign":"Scorpio"}' }, finish: "stop" },
      {
        message: {
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "lucky_number", arguments: '{"name":"Lynda"}' },
            },
          ],
        },
        finish: "tool_calls",
      },
      { message: { content: '{"headline":"Stars align","text":"A lucky day, Lynda."}' }, finish: "stop" },
    ];
    const terminal = memoryTerminal();
    const code = await runCli(["run", "star-news", "Lynda, a Scorpio"], {
      terminal,
      env: { EMBABEL_MODEL: `openai-compatible:gpt-test@${baseURL}` },
      cwd: process.cwd(),
    });
    expect(terminal.stderr.join("\n")).toBe("");
    expect(code).toBe(0);
    expect(terminal.stdout).toContain("  ↻ retrying in 1.0 s after 429 (attempt 2 of 3)");
    expect(terminal.stdout.join("\n")).toContain("Stars align");
    expect(terminal.stdout.join("\n")).toMatch(/^✔ completed .* · 1 LLM retry · /m);
    expect(requests).toBe(4);
  }, 15_000);
});
