import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../testing/index.js";
import { retryAfterMs, retryDelayMs, retryReason, waitForRetry } from "./model-call-retry.js";
import { runToolLoop, type ToolLoopEvent } from "./tool-loop.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

function apiError(statusCode: number | undefined, headers?: Record<string, string>, isRetryable?: boolean) {
  return new APICallError({
    message: `status ${statusCode}`,
    url: "http://127.0.0.1/v1/chat/completions",
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(headers ? { responseHeaders: headers } : {}),
    ...(isRetryable === undefined ? {} : { isRetryable }),
  });
}

describe("retryAfterMs", () => {
  it("prefers retry-after-ms, then retry-after in seconds or as an HTTP date", () => {
    expect(retryAfterMs(apiError(429, { "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(retryAfterMs(apiError(429, { "retry-after": "1.5" }))).toBe(1500);
    const date = new Date(Date.now() + 5_000).toUTCString();
    const ms = retryAfterMs(apiError(429, { "retry-after": date })) ?? -1;
    expect(ms).toBeGreaterThan(3_000);
    expect(ms).toBeLessThanOrEqual(5_000);
    expect(retryAfterMs(apiError(429, { "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterMs(new Error("plain"))).toBeUndefined();
  });
});

describe("retryDelayMs", () => {
  it("honours the provider's wait up to 60 s and refuses a longer one", () => {
    expect(retryDelayMs(apiError(429, { "retry-after": "60" }), 1, 2000)).toBe(60_000);
    expect(retryDelayMs(apiError(429, { "retry-after": "61" }), 1, 2000)).toBeUndefined();
  });

  it("backs off exponentially with jitter between half and all of the wait", () => {
    for (let index = 0; index < 50; index += 1) {
      const first = retryDelayMs(apiError(500), 1, 1000) ?? -1;
      const third = retryDelayMs(apiError(500), 3, 1000) ?? -1;
      expect(first).toBeGreaterThanOrEqual(500);
      expect(first).toBeLessThanOrEqual(1000);
      expect(third).toBeGreaterThanOrEqual(2000);
      expect(third).toBeLessThanOrEqual(4000);
    }
    expect(retryDelayMs(apiError(500), 20, 1000)).toBeLessThanOrEqual(60_000);
  });

  it("does not retry what the provider marks non-retryable, nor other errors", () => {
    expect(retryDelayMs(apiError(400), 1, 1000)).toBeUndefined();
    expect(retryDelayMs(apiError(401), 1, 1000)).toBeUndefined();
    expect(retryDelayMs(new Error("ECONNRESET"), 1, 1000)).toBeUndefined();
    expect(retryDelayMs(apiError(undefined, undefined, true), 1, 1000)).toBeGreaterThanOrEqual(500);
  });
});

describe("retryReason", () => {
  it("is the status when there is one, else the message cut to 80 characters", () => {
    expect(retryReason(apiError(429))).toBe("429");
    expect(retryReason(apiError(undefined, undefined, true))).toBe("status undefined");
    expect(retryReason(new Error("x".repeat(100)))).toBe(`${"x".repeat(80)}…`);
  });
});

describe("waitForRetry", () => {
  it("rejects with the signal's reason as soon as it aborts", async () => {
    const controller = new AbortController();
    const started = performance.now();
    const waiting = waitForRetry(30_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    expect(performance.now() - started).toBeLessThan(100);
    await expect(waitForRetry(10, AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
  });
});

describe("runToolLoop retries", () => {
  it("retries a retryable failure, reports it and counts it in the result", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.error(apiError(503)),
      ScriptedModel.error(apiError(429, { "retry-after-ms": "1" })),
      ScriptedModel.text("done"),
    );
    const events: ToolLoopEvent[] = [];
    const result = await runToolLoop({
      model,
      prompt,
      tools: [],
      initialRetryDelayMs: 1,
      interactionId: "asking",
      onEvent: (event) => events.push(event),
    });
    expect(result.text).toBe("done");
    expect(result.llmRetries).toBe(2);
    expect(result.iterations).toBe(1);
    expect(events.filter((event) => event.type === "llm-call-retry")).toMatchObject([
      { iteration: 1, attempt: 2, maxAttempts: 3, reason: "503", statusCode: 503, interactionId: "asking" },
      { iteration: 1, attempt: 3, maxAttempts: 3, delayMs: 1, reason: "429" },
    ]);
    expect(events.filter((event) => event.type === "llm-call-start")).toHaveLength(1);
  });

  it("delivers llm-call-retry events to a listener that asks only for them", async () => {
    const model = ScriptedModel.of(ScriptedModel.error(apiError(503)), ScriptedModel.text("done"));
    const events: ToolLoopEvent[] = [];
    await runToolLoop({
      model,
      prompt,
      tools: [],
      initialRetryDelayMs: 1,
      onEvent: (event) => events.push(event),
      eventTypes: new Set(["llm-call-retry"]),
    });
    expect(events).toMatchObject([{ type: "llm-call-retry", iteration: 1, attempt: 2, reason: "503" }]);
  });

  it("does not retry a stream whose text has begun to arrive", async () => {
    let streams = 0;
    const failing = apiError(500);
    const model: LanguageModelV3 = {
      specificationVersion: "v3",
      provider: "test",
      modelId: "half-stream",
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error("not used")),
      doStream: async () => {
        streams += 1;
        const parts: LanguageModelV3StreamPart[] = [
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Hel" },
          { type: "error", error: failing },
        ];
        return {
          stream: new ReadableStream({
            start: (controller) => {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        };
      },
    };
    const deltas: string[] = [];
    const error = await runToolLoop({
      model,
      prompt,
      tools: [],
      initialRetryDelayMs: 1,
      onTextDelta: (delta) => deltas.push(delta),
    }).catch((caught: unknown) => caught);
    expect(error).toBe(failing);
    expect(streams).toBe(1);
    expect(deltas).toEqual(["Hel"]);
  });

  it("refuses a negative maxRetries or initialRetryDelayMs", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("x"));
    await expect(runToolLoop({ model, prompt, tools: [], maxRetries: -1 })).rejects.toThrow(
      "The tool loop's maxRetries must be an integer >= 0, got -1.",
    );
    await expect(runToolLoop({ model, prompt, tools: [], initialRetryDelayMs: -5 })).rejects.toThrow(
      /initialRetryDelayMs must be a number of milliseconds >= 0/,
    );
  });
});
