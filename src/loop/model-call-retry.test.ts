import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { retryAfterMs, retryDelayMs, retryReason, waitForRetry } from "./model-call-retry.js";

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
