import type { Budget } from "../platform/budget.js";
import type { VerbosityInit } from "../platform/verbosity.js";
import type { QueueLibraries, RedisClient } from "./load-bullmq.js";

/** The queue runs go to when none is named. */
export const DEFAULT_QUEUE = "embabel-agents";

/** What one queued run carries (the BullMQ job's data; the job id is the process id). */
export interface RunJobData {
  /** The agent's name; the worker that takes the job must have it deployed. */
  readonly agent: string;
  /** The input, as a `WireValues` tree. */
  readonly input: unknown;
  readonly contextId: string | undefined;
  /** The tool-call context's entries, as a `WireValues` tree. */
  readonly toolCallContext: unknown;
  readonly budget: Budget;
  readonly verbosity: VerbosityInit;
  /** Whether the worker publishes the process's events and output for the caller to replay. */
  readonly events: boolean;
  /** The process a resume job continues (a resume job's id is `<process id>-resume-<uuid>`). @default the job id */
  readonly processId?: string;
}

/** What a worker publishes on a process's events channel. */
export type WireEvent =
  | { readonly kind: "event"; readonly event: Record<string, unknown> }
  | { readonly kind: "output"; readonly event: Record<string, unknown> };

/** The Redis keys and channels of one queue, beside BullMQ's own. */
export function queueKeys(queue: string) {
  const base = `embabel:${queue}`;
  return {
    checkpoint: (id: string) => `${base}:checkpoint:${id}`,
    kill: (id: string) => `${base}:kill:${id}`,
    killChannel: `${base}:kill`,
    events: (id: string) => `${base}:events:${id}`,
    /** The ids of the processes waiting for a person. */
    waiting: `${base}:waiting`,
  };
}

/** `redis://:secret@host` → `redis://:***@host`, for messages. */
export function redactUrl(url: string): string {
  return url.replace(
    /\/\/([^@/]*)@/,
    (_, auth: string) => `//${auth.includes(":") ? `${auth.split(":")[0]}:***` : "***"}@`,
  );
}

/**
 * A connected ioredis client: the first connection must succeed (an
 * unreachable Redis is an error naming the URL, not an endless retry);
 * later drops reconnect.
 */
export async function connectRedis(libraries: QueueLibraries, url: string): Promise<RedisClient> {
  let connected = false;
  const client = libraries.redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectTimeout: 5_000,
    retryStrategy: (times: number) => (connected ? Math.min(times * 100, 2_000) : null),
  });
  let lastError: Error | undefined;
  client.on("error", (error: Error) => {
    lastError = error; // the cause of a failed first connect; later drops reconnect
  });
  try {
    await client.connect();
    await client.ping();
    connected = true;
    return client;
  } catch (error) {
    client.disconnect();
    const cause = lastError ?? (error as Error);
    const hint = /certificate/i.test(cause.message)
      ? "Trust the CA that signed the server's certificate (NODE_EXTRA_CA_CERTS=/path/ca.pem), or fix the URL."
      : "Start redis-server, or fix the URL (redis://host:port).";
    throw new Error(
      `Cannot reach Redis at ${redactUrl(url)}: ${cause.message.replace(/\.+$/, "")}. ${hint}`,
      {
        cause: error,
      },
    );
  }
}

/** JSON for an event: errors as `{ $error }`, functions dropped; an event JSON cannot carry is cut to its type. */
export function eventJson(kind: WireEvent["kind"], event: object): string {
  try {
    return JSON.stringify({ kind, event }, (_key, value) =>
      value instanceof Error
        ? { $error: { name: value.name, message: value.message } }
        : typeof value === "function" || typeof value === "bigint"
          ? undefined
          : value,
    );
  } catch {
    const { type, processId, timestamp } = event as Record<string, unknown>;
    return JSON.stringify({ kind, event: { type, processId, timestamp } });
  }
}

/** The event back from {@link eventJson}, with errors as `Error`s. */
export function parseEvent(text: string): WireEvent {
  return JSON.parse(text, (_key, value) => {
    if (typeof value === "object" && value !== null && "$error" in value) {
      const { name, message } = (value as { $error: { name: string; message: string } }).$error;
      const error = new Error(message);
      error.name = name;
      return error;
    }
    return value;
  }) as WireEvent;
}
