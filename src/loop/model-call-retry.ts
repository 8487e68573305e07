import type { APICallError, LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { ConfigurationError } from "../errors/configuration-error.js";
import { callModel, type ModelResponse } from "./call-model.js";
import { emit, type LoopEventListener } from "./loop-telemetry.js";

/** Retries of a failed model call, as the AI SDK's `generateText`. */
export const DEFAULT_MAX_RETRIES = 2;

/** The first backoff wait (the AI SDK's); each later one doubles. */
export const DEFAULT_INITIAL_RETRY_DELAY_MS = 2_000;

/**
 * The longest wait a `retry-after` / `retry-after-ms` header is honoured for,
 * and the longest backoff: a provider asking for longer (a spent daily quota)
 * is not retried, since waiting would only fail again later.
 */
export const MAX_RETRY_DELAY_MS = 60_000;

/** Throws a {@link ConfigurationError} unless `value` is an integer >= 0. */
export function checkMaxRetries(owner: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new ConfigurationError(`${owner} maxRetries must be an integer >= 0, got ${value}.`);
  }
}

const API_CALL_ERROR = Symbol.for("vercel.ai.error.AI_APICallError");

/**
 * `error` when it is the AI SDK's `APICallError` (read by its `Symbol.for`
 * marker, as `APICallError.isInstance` does, so the core need not load
 * `@ai-sdk/provider` and any copy of it is recognised).
 */
function apiCallError(error: unknown): APICallError | undefined {
  return typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[API_CALL_ERROR] === true
    ? (error as APICallError)
    : undefined;
}

/** The HTTP status of a provider error, if it has one. */
function statusOf(error: unknown): number | undefined {
  return apiCallError(error)?.statusCode;
}

/** Whether the provider marked `error` retryable (`APICallError.isRetryable`: 408, 409, 429, 5xx, connection failures and resets). */
export function isRetryableModelError(error: unknown): boolean {
  return apiCallError(error)?.isRetryable === true;
}

/** The wait the provider asked for in `retry-after-ms` or `retry-after` (seconds or an HTTP date), if any. */
export function retryAfterMs(error: unknown): number | undefined {
  const headers = apiCallError(error)?.responseHeaders;
  if (!headers) return undefined;
  const precise = headers["retry-after-ms"];
  if (precise !== undefined) {
    const ms = Number.parseFloat(precise);
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  const after = headers["retry-after"];
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * How long to wait before retry number `retry` (1 for the first) after
 * `error`, or `undefined` when it is not retried: the provider's
 * `retry-after-ms` / `retry-after` when present (not retried when over
 * {@link MAX_RETRY_DELAY_MS}), else `initialDelayMs * 2^(retry-1)` with
 * jitter (between half and all of it), at most {@link MAX_RETRY_DELAY_MS}.
 */
export function retryDelayMs(error: unknown, retry: number, initialDelayMs: number): number | undefined {
  if (!isRetryableModelError(error)) return undefined;
  const asked = retryAfterMs(error);
  if (asked !== undefined) return asked <= MAX_RETRY_DELAY_MS ? asked : undefined;
  const backoff = Math.min(MAX_RETRY_DELAY_MS, initialDelayMs * 2 ** (retry - 1));
  return Math.round(backoff * (0.5 + Math.random() * 0.5));
}

/** What went wrong, in a few words: the HTTP status (`429`), else the error's message cut to 80 characters. */
export function retryReason(error: unknown): string {
  const status = statusOf(error);
  if (status !== undefined) return String(status);
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 80 ? `${message.slice(0, 80)}…` : message;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. */
export function waitForRetry(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What {@link ModelCallRetries} needs of its loop. */
export interface ModelCallRetriesOptions {
  readonly model: LanguageModelV3;
  readonly maxRetries: number;
  readonly initialDelayMs: number;
  readonly signal: AbortSignal | undefined;
  readonly loopId: string;
  readonly interactionId: string | undefined;
  /** Receives `llm-call-retry` events (absent: nobody does, and they are not built). */
  readonly onRetry: LoopEventListener | undefined;
  /** The loop's text-delta callback, when it streams. */
  readonly onTextDelta: ((delta: string) => void) | undefined;
}

/**
 * The retries of one loop's model calls. The loop makes each call's first
 * attempt itself (nothing here runs while calls succeed) and hands a failure
 * to {@link ModelCallRetries.retry}, which waits and tries again while the
 * error is retryable and attempts remain. A streamed answer whose text has
 * begun to arrive is not retried (the text would be repeated).
 */
export class ModelCallRetries {
  /** Retries made so far in the loop. */
  count = 0;
  /** Set when the current round's stream passed text on. */
  private streamed = false;
  /** The delta callback to give the model call: the loop's, noting that text arrived. */
  readonly onTextDelta: ((delta: string) => void) | undefined;

  constructor(private readonly options: ModelCallRetriesOptions) {
    checkMaxRetries("The tool loop's", options.maxRetries);
    const delay = options.initialDelayMs;
    if (typeof delay !== "number" || !Number.isFinite(delay) || delay < 0) {
      throw new ConfigurationError(
        `The tool loop's initialRetryDelayMs must be a number of milliseconds >= 0, got ${delay}.`,
      );
    }
    const onTextDelta = options.onTextDelta;
    this.onTextDelta =
      onTextDelta === undefined
        ? undefined
        : (delta) => {
            this.streamed = true;
            onTextDelta(delta);
          };
  }

  /** Retries the call `request` of round `iteration`, whose first attempt failed with `error`; rethrows the last error when out of attempts. */
  async retry(
    error: unknown,
    request: LanguageModelV3CallOptions,
    iteration: number,
  ): Promise<ModelResponse> {
    const { maxRetries, signal, onRetry } = this.options;
    let failure = error;
    for (let retry = 1; ; retry += 1) {
      if (retry > maxRetries || this.streamed || signal?.aborted) throw failure;
      const delayMs = retryDelayMs(failure, retry, this.options.initialDelayMs);
      if (delayMs === undefined) throw failure;
      this.count += 1;
      if (onRetry !== undefined) emit(onRetry, this.event(failure, iteration, retry, delayMs));
      await waitForRetry(delayMs, signal);
      try {
        return await callModel(this.options.model, request, this.onTextDelta);
      } catch (next) {
        failure = next;
      }
    }
  }

  /** Called before each round's first attempt. */
  beginRound(): void {
    this.streamed = false;
  }

  private event(error: unknown, iteration: number, retry: number, delayMs: number) {
    const { loopId, interactionId, maxRetries } = this.options;
    const status = statusOf(error);
    return {
      type: "llm-call-retry" as const,
      loopId,
      ...(interactionId === undefined ? {} : { interactionId }),
      iteration,
      attempt: retry + 1,
      maxAttempts: maxRetries + 1,
      delayMs,
      reason: retryReason(error),
      ...(status === undefined ? {} : { statusCode: status }),
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
