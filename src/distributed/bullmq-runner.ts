// Over 400 lines: the caller side of a queue run is one class (start, await, respond, kill over BullMQ); the worker, codec and protocol are sibling files.
import { randomUUID } from "node:crypto";
import type { Job, Queue, QueueEvents } from "bullmq";
import { CheckpointError } from "../errors/checkpoint-error.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { InvalidResponseError } from "../errors/invalid-response-error.js";
import { ProcessLostError } from "../errors/process-lost-error.js";
import type { Agent } from "../platform/agent.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import { AgentProcess } from "../platform/agent-process.js";
import { AgentProcessStatus } from "../platform/agent-process-status.js";
import type { AwaitableRequest, AwaitableResponse, RespondOptions } from "../platform/awaitable.js";
import { OutputChannel } from "../platform/output-channel.js";
import type { ProcessCheckpoint } from "../platform/process-checkpoint.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import type { RunProcessOptions } from "../platform/process-launcher.js";
import { ProcessOptions } from "../platform/process-options.js";
import type { ProcessHandle, ProcessRunner } from "../platform/process-runner.js";
import { recordWaitSpan } from "../platform/process-telemetry.js";
import { ProcessWaits, type WaitState } from "../platform/process-waits.js";
import { decodeCheckpoint, encodeCheckpoint } from "./checkpoint-codec.js";
import { type ConnectionWatch, watchConnection } from "./connection-watch.js";
import { loadQueueLibraries, type RedisClient } from "./load-bullmq.js";
import { connectRedis, DEFAULT_QUEUE, parseEvent, queueKeys, type RunJobData } from "./queue-protocol.js";
import { queuedCheckpoint } from "./queued-checkpoint.js";
import { type RegisteredType, TypeRegistry } from "./type-registry.js";
import { WireValues } from "./wire-value.js";

/** Options of {@link BullMqRunner.create}. */
export interface BullMqRunnerOptions {
  /** The Redis URL (`redis://host:port`, `rediss://user:password@host:port/db`). */
  readonly connection: string;
  /** The BullMQ queue name; workers must use the same. @default "embabel-agents" */
  readonly queue?: string;
  /** Types the inputs and results may hold beyond what the platform's deployed agents declare: classes, `domainType`s or codecs. @default [] */
  readonly types?: Iterable<RegisteredType>;
  /** How long finished processes (their checkpoints and jobs) stay in Redis for `platform.process(id)`. @default 86_400 (one day) */
  readonly keepFinishedSeconds?: number;
  /** How long `result()` waits for the process's last events after it finished (when listeners are set). @default 2_000 */
  readonly eventGraceMs?: number;
  /** How often a waiting `result()` checks that its job still exists: a job lost with Redis (restarted without persistence) is a `ProcessLostError` within this interval. Use the workers' `stalledIntervalMs`. @default 30_000 */
  readonly stalledIntervalMs?: number;
}

/** What {@link BullMqRunner.answer} stored. */
export interface StoredAnswer {
  /** The process as stored now (its plain data; values are read by `platform.process(id)`). */
  readonly checkpoint: ProcessCheckpoint;
  /** The requests still open; when none, the process was queued to continue. */
  readonly open: readonly AwaitableRequest[];
  /** The id of the job continuing the process, once nothing is open. */
  readonly resumeJobId: string | undefined;
}

/** Where a queued process's job is: BullMQ's job states, or `unknown` when Redis has no such job. */
export type QueuedJobState =
  | "waiting"
  | "prioritized"
  | "delayed"
  | "waiting-children"
  | "active"
  | "completed"
  | "failed"
  | "unknown";

interface Subscription {
  readonly listeners: ProcessOptions["listeners"];
  readonly outputChannel: OutputChannel;
  finished: () => void;
}

/**
 * Sends each `runAgent` of a platform to a BullMQ queue on Redis, where
 * `AgentWorker`s (`embabel-ts worker`) run it: `AgentPlatform.create({ ...,
 * runner: await BullMqRunner.create({ connection: "redis://…" }) })`.
 * `runAgent` still resolves to the finished process (status, result,
 * blackboard, history, usage, cost); listeners and the output channel get
 * the worker's events as they happen; aborting `signal` kills the process on
 * its worker. Inputs are serialised at enqueue: an object of a type neither
 * the deployed agents nor `types` declare is a `SerializationError` then.
 */
export class BullMqRunner implements ProcessRunner {
  private readonly keys: ReturnType<typeof queueKeys>;
  private readonly subscriptions = new Map<string, Subscription>();
  private subscriber: RedisClient | undefined;
  private readonly wires = new WeakMap<AgentPlatform, { count: number; wire: WireValues }>();
  private readonly types: readonly RegisteredType[];
  private readonly keepFinishedSeconds: number;
  private readonly eventGraceMs: number;
  private readonly stalledIntervalMs: number;
  /** Wakes the `result()` waiting on a process id (its job was removed from the queue by a kill). */
  private readonly wakers = new Map<string, Set<() => void>>();

  private constructor(
    /** The queue's name. */
    readonly queueName: string,
    private readonly redis: RedisClient,
    private readonly queue: Queue,
    private readonly queueEvents: QueueEvents,
    private readonly watch: ConnectionWatch,
    options: BullMqRunnerOptions,
  ) {
    this.keys = queueKeys(queueName);
    this.types = [...(options.types ?? [])];
    this.keepFinishedSeconds = options.keepFinishedSeconds ?? 86_400;
    this.eventGraceMs = options.eventGraceMs ?? 2_000;
    this.stalledIntervalMs = options.stalledIntervalMs ?? 30_000;
  }

  /** Connects to Redis and the queue; rejects at once, naming the URL, when Redis cannot be reached. */
  static async create(options: BullMqRunnerOptions): Promise<BullMqRunner> {
    const libraries = await loadQueueLibraries();
    const redis = await connectRedis(libraries, options.connection);
    const name = options.queue ?? DEFAULT_QUEUE;
    const connection = { url: options.connection, maxRetriesPerRequest: null };
    const queue = new libraries.bullmq.Queue(name, { connection });
    const queueEvents = new libraries.bullmq.QueueEvents(name, { connection });
    // Every waiting result() listens on both (BullMQ's waitUntilFinished): thousands may wait at once.
    queue.setMaxListeners(0);
    queueEvents.setMaxListeners(0);
    // One line when Redis goes away and one when it is back (not a stack trace per retry).
    const watch = watchConnection(
      options.connection,
      `runner (queue '${name}')`,
      [queue, queueEvents, redis],
      redis,
    );
    await Promise.all([queue.waitUntilReady(), queueEvents.waitUntilReady()]);
    return new BullMqRunner(name, redis, queue, queueEvents, watch, options);
  }

  async start(
    agent: Agent | string,
    input: unknown,
    options: RunProcessOptions,
    platform: AgentPlatform,
  ): Promise<ProcessHandle> {
    const agentName = typeof agent === "string" ? agent : agent.name;
    const id = options.checkpoint?.id ?? options.id ?? randomUUID();
    const wire = this.wire(platform);
    const processOptions = options.processOptions ?? ProcessOptions.DEFAULT;
    const events =
      processOptions.listeners.length > 0 || processOptions.outputChannel !== OutputChannel.DEV_NULL;
    const { verbosity } = processOptions;
    const data: RunJobData = {
      agent: agentName,
      input: wire.encode(input, "the input"),
      contextId: processOptions.contextId,
      toolCallContext: wire.encode(processOptions.toolCallContext.toRecord(), "the tool-call context"),
      budget: processOptions.budget,
      verbosity: {
        showPrompts: verbosity.showPrompts,
        showLlmResponses: verbosity.showLlmResponses,
        debug: verbosity.debug,
        showPlanning: verbosity.showPlanning,
      },
      events,
    };
    if (options.checkpoint) {
      await this.redis.set(this.keys.checkpoint(id), encodeCheckpoint(options.checkpoint, wire));
    }
    let finishedEvent: Promise<void> = Promise.resolve();
    if (events) finishedEvent = (await this.subscribe(id, processOptions)).done;
    const keep = { age: this.keepFinishedSeconds };
    let job: Job;
    try {
      job = await this.queue.add(agentName, data, { jobId: id, removeOnComplete: keep, removeOnFail: keep });
      // A chosen id that names a queued or kept run: the same run again is that run; another is an error.
      if (options.id !== undefined && !options.checkpoint) await this.sameRun(id, data);
    } catch (error) {
      await this.unsubscribe(id);
      throw error;
    }
    const kill = (reason = "Killed") => this.kill(id, reason);
    const signal = options.signal;
    const onAbort = () => {
      const reason = signal?.reason;
      void kill(reason instanceof Error ? reason.message : "Killed").catch(() => {});
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    let done: Promise<AgentProcess> | undefined;
    return {
      id,
      kill,
      result: () => {
        done ??= this.finished(job, agentName, platform, finishedEvent).finally(() => {
          signal?.removeEventListener("abort", onAbort);
        });
        return done;
      },
    };
  }

  async process(id: string, platform: AgentPlatform): Promise<AgentProcess | undefined> {
    const text = await this.redis.get(this.keys.checkpoint(id));
    if (text !== null) return this.toProcess(decodeCheckpoint(text, this.wire(platform), id), platform);
    const job = await this.queue.getJob(id);
    if (!job) return undefined;
    return this.toProcess(queuedCheckpoint(id, (job.data as RunJobData).agent), platform);
  }

  /**
   * Answers request `requestId` of the waiting process `id` in its checkpoint
   * in Redis (from any caller, at any time; a bad answer is an
   * `InvalidResponseError` and nothing changes). Once no request is open, a
   * resume job is queued and any worker continues the process from its
   * checkpoint; resolves to the process when it ends or waits again.
   */
  async respond(
    id: string,
    requestId: string,
    response: AwaitableResponse,
    options: RespondOptions,
    platform: AgentPlatform,
  ): Promise<AgentProcess> {
    const stored = await this.answer(id, requestId, response, options);
    if (stored.resumeJobId === undefined) return this.readProcess(id, platform, stored.checkpoint);
    return (await this.resumed(id, stored.resumeJobId, platform)) ?? this.readProcess(id, platform);
  }

  /**
   * Stores the answer to request `requestId` of the waiting process `id` in
   * its checkpoint in Redis and, once no request is open, queues the job that
   * continues it; resolves as soon as that is written (no worker need be
   * alive). Only the checkpoint's plain wait data is read, so the types of
   * its blackboard need not be known here. A bad answer is an
   * `InvalidResponseError` and nothing changes.
   */
  async answer(
    id: string,
    requestId: string,
    response: AwaitableResponse,
    options: RespondOptions = {},
  ): Promise<StoredAnswer> {
    const key = this.keys.checkpoint(id);
    for (;;) {
      // Optimistic: two responders at once cannot both change the same checkpoint.
      const watcher = this.redis.duplicate();
      try {
        await watcher.watch(key);
        const text = await watcher.get(key);
        if (text === null)
          throw new InvalidResponseError(
            `No process with id ${id} is stored in Redis (queue '${this.queueName}').`,
            id,
            requestId,
          );
        const raw = plainCheckpoint(text, id);
        if (raw.checkpoint.status !== "waiting")
          throw new InvalidResponseError(
            `Process ${id} is not waiting (status ${raw.checkpoint.status}).`,
            id,
            requestId,
          );
        const waits = new ProcessWaits(raw.checkpoint.waiting);
        const now = Date.now();
        const expired = waits.expire(now);
        const accepted = waits.answer(id, requestId, response, now);
        const waiting = waits.state();
        // The stored text with only its waits changed: the blackboard is written back as it was.
        const written = await watcher
          .multi()
          .set(key, JSON.stringify({ ...raw.stored, waiting }))
          .exec();
        if (written === null) continue;
        for (const timedOut of expired) recordWaitSpan(id, timedOut, "timeout");
        recordWaitSpan(id, accepted, options.respondent ?? "api");
        const checkpoint = { ...raw.checkpoint, waiting };
        if (waits.requests.length > 0) return { checkpoint, open: waits.requests, resumeJobId: undefined };
        const resumeJobId = await this.queueResume(id, raw.checkpoint.agentName);
        return { checkpoint, open: [], resumeJobId };
      } finally {
        watcher.disconnect();
      }
    }
  }

  /**
   * Waits for the resume job `jobId` of process `id` (from {@link answer}) to
   * finish and resolves to the process; with `timeoutMs`, resolves to
   * `undefined` when it has not finished by then (the job stays queued), as
   * it does when `signal` aborts.
   */
  async resumed(
    id: string,
    jobId: string,
    platform: AgentPlatform,
    options: { readonly timeoutMs?: number; readonly signal?: AbortSignal } = {},
  ): Promise<AgentProcess | undefined> {
    const job = await this.queue.getJob(jobId);
    if (job) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const stop = new Promise<"stopped">((resolve) => {
        if (options.timeoutMs !== undefined) timer = setTimeout(() => resolve("stopped"), options.timeoutMs);
        onAbort = () => resolve("stopped");
        if (options.signal?.aborted) onAbort();
        else options.signal?.addEventListener("abort", onAbort, { once: true });
      });
      try {
        const outcome = await Promise.race([
          job.waitUntilFinished(this.queueEvents).then(
            () => "done" as const,
            () => "done" as const, // the checkpoint says how it ended
          ),
          stop,
        ]);
        if (outcome === "stopped") return undefined;
      } finally {
        clearTimeout(timer);
        if (onAbort) options.signal?.removeEventListener("abort", onAbort);
      }
    }
    return this.readProcess(id, platform);
  }

  /**
   * The processes waiting for a person, with their open requests (`embabel-ts
   * waiting`). A checkpoint whose values cannot be read here (a type no agent
   * deployed on `platform` declares, or damaged values) is listed from its
   * plain wait data; one that is not even that is skipped with a warning.
   */
  async waitingProcesses(platform: AgentPlatform): Promise<AgentProcess[]> {
    const ids = await this.redis.smembers(this.keys.waiting);
    const processes: AgentProcess[] = [];
    for (const id of ids.sort()) {
      const text = await this.redis.get(this.keys.checkpoint(id));
      if (text === null) continue;
      try {
        const process = this.readStored(text, id, platform);
        // Answered in full, queued for a worker: nobody is asked anything.
        if (process.status === "waiting" && process.awaiting.length > 0) processes.push(process);
      } catch (error) {
        platform.logger.warn(`Skipping waiting process ${id}: ${(error as Error).message}`);
      }
    }
    return processes;
  }

  /** The process `id` as stored (from its plain data when its values cannot be read here), else `fallback`'s. */
  private async readProcess(
    id: string,
    platform: AgentPlatform,
    fallback?: ProcessCheckpoint,
  ): Promise<AgentProcess> {
    const text = await this.redis.get(this.keys.checkpoint(id));
    if (text !== null) {
      try {
        return this.readStored(text, id, platform);
      } catch (error) {
        if (!fallback) throw error;
      }
    }
    const found = fallback ? undefined : await this.process(id, platform);
    if (found) return found;
    return this.toProcess(fallback ?? queuedCheckpoint(id, ""), platform);
  }

  /** A stored checkpoint as a process: all of it when this platform can read its values, else its plain data. */
  private readStored(text: string, id: string, platform: AgentPlatform): AgentProcess {
    try {
      return this.toProcess(decodeCheckpoint(text, this.wire(platform), id), platform);
    } catch (error) {
      if (!CheckpointError.isInstance(error)) throw error;
      return this.toProcess(plainCheckpoint(text, id).checkpoint, platform);
    }
  }

  /** Queues a job continuing the answered process `id`; returns the job's id. */
  private async queueResume(id: string, agentName: string | undefined): Promise<string> {
    const original = await this.queue.getJob(id);
    const data: RunJobData = {
      ...((original?.data as RunJobData | undefined) ?? {
        agent: agentName ?? "",
        input: null,
        contextId: undefined,
        toolCallContext: {},
        budget: ProcessOptions.DEFAULT.budget,
        verbosity: {},
      }),
      events: false,
      processId: id,
    };
    const keep = { age: this.keepFinishedSeconds };
    const jobId = `${id}-resume-${randomUUID()}`;
    await this.queue.add(data.agent, data, { jobId, removeOnComplete: keep, removeOnFail: keep });
    return jobId;
  }

  /**
   * Kills the process `id` wherever it runs (at its next action boundary), or
   * at once when no worker has taken it yet: its job leaves the queue and the
   * process ends `killed`.
   */
  async kill(id: string, reason = "Killed"): Promise<void> {
    await this.redis
      .multi()
      .set(this.keys.kill(id), reason, "EX", this.keepFinishedSeconds)
      .publish(this.keys.killChannel, JSON.stringify({ id, reason }))
      .exec();
    const job = await this.queue.getJob(id);
    if (!job || (await job.getState()) !== "waiting") return;
    // The killed checkpoint first: a worker taking the job meanwhile finds it finished (or the kill key).
    const stored = await this.redis.get(this.keys.checkpoint(id));
    const killed = stored
      ? withStatus(stored, "killed", reason)
      : encodeCheckpoint(
          queuedCheckpoint(id, (job.data as RunJobData).agent, { status: "killed", reason }),
          new WireValues(TypeRegistry.of([])),
        );
    await this.redis.set(this.keys.checkpoint(id), killed, "EX", this.keepFinishedSeconds);
    await job.remove().catch(() => {}); // refused when a worker took it meanwhile: it holds the lock, and kills it
    for (const wake of this.wakers.get(id) ?? []) wake();
  }

  /** Where process `id`'s job is now: `waiting` until a worker takes it, `unknown` when Redis has no such job. */
  async jobState(id: string): Promise<QueuedJobState> {
    return (await this.queue.getJobState(id)) as QueuedJobState;
  }

  /** How many workers are connected to this queue now; `undefined` when Redis does not say (CLIENT LIST refused). */
  async workerCount(): Promise<number | undefined> {
    try {
      return await this.queue.getWorkersCount();
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.watch.stop();
    await Promise.allSettled([this.queueEvents.close(), this.queue.close()]);
    this.subscriber?.disconnect();
    this.redis.disconnect();
  }

  private async finished(
    job: Job,
    agentName: string,
    platform: AgentPlatform,
    finishedEvent: Promise<void>,
  ): Promise<AgentProcess> {
    const id = job.id as string;
    let failedReason: string | undefined;
    try {
      failedReason = await this.settled(job);
    } catch (error) {
      await this.unsubscribe(id);
      throw error;
    }
    await Promise.race([
      finishedEvent,
      new Promise((resolve) => setTimeout(resolve, this.eventGraceMs).unref()),
    ]);
    await this.unsubscribe(id);
    const text = await this.redis.get(this.keys.checkpoint(id));
    let checkpoint: ProcessCheckpoint = text
      ? decodeCheckpoint(text, this.wire(platform), id)
      : queuedCheckpoint(id, agentName, {
          status: "failed",
          reason: failedReason ?? `Process ${id} left no checkpoint in Redis (expired or deleted).`,
        });
    if (text && failedReason !== undefined) {
      await this.redis.expire(this.keys.checkpoint(id), this.keepFinishedSeconds).catch(() => {});
    }
    if (!AgentProcessStatus.isFinished(checkpoint.status) && checkpoint.status !== "waiting") {
      checkpoint = {
        ...checkpoint,
        status: "failed",
        statusReason: `The queue gave up on the process: ${failedReason ?? "it ended without finishing"}`,
        endedAt: Date.now(),
      };
    }
    return this.toProcess(checkpoint, platform);
  }

  /**
   * Resolves when `job` has finished (to its failure reason, if it failed).
   * Besides BullMQ's completion event it checks the job every
   * `stalledIntervalMs`, so a job Redis lost (or a missed event) never leaves
   * the caller waiting: a job gone without a finished checkpoint is a
   * {@link ProcessLostError}.
   */
  private async settled(job: Job): Promise<string | undefined> {
    const id = job.id as string;
    const finished = job.waitUntilFinished(this.queueEvents).then(
      () => ({ failedReason: undefined }),
      (error: unknown) => ({ failedReason: error instanceof Error ? error.message : String(error) }),
    );
    const wakers = this.wakers.get(id) ?? new Set<() => void>();
    this.wakers.set(id, wakers);
    let wake: () => void = () => {};
    try {
      for (;;) {
        let timer: NodeJS.Timeout | undefined;
        const tick = new Promise<undefined>((resolve) => {
          wake = () => resolve(undefined);
          wakers.add(wake);
          timer = setTimeout(() => resolve(undefined), this.stalledIntervalMs);
        });
        const outcome = await Promise.race([finished, tick]);
        clearTimeout(timer);
        wakers.delete(wake);
        if (outcome) return outcome.failedReason;
        const state = await this.jobState(id);
        if (state === "completed") return undefined;
        if (state === "failed") return (await this.queue.getJob(id))?.failedReason ?? "The job failed";
        if (state === "unknown") {
          if (await this.finishedCheckpointExists(id)) return undefined;
          throw new ProcessLostError(id, this.queueName);
        }
      }
    } finally {
      wakers.delete(wake);
      if (wakers.size === 0) this.wakers.delete(id);
    }
  }

  private async finishedCheckpointExists(id: string): Promise<boolean> {
    const text = await this.redis.get(this.keys.checkpoint(id));
    if (text === null) return false;
    try {
      const { status } = JSON.parse(text) as { status?: AgentProcessStatus };
      return typeof status === "string" && AgentProcessStatus.isFinished(status);
    } catch {
      return true; // damaged: reading it says so (CheckpointError)
    }
  }

  /** Throws when the job `id` holds another run than `data` (another agent or input). */
  private async sameRun(id: string, data: RunJobData): Promise<void> {
    const stored = await this.queue.getJob(id);
    if (!stored) return;
    const existing = stored.data as RunJobData;
    const sameAgent = existing.agent === data.agent;
    if (sameAgent && JSON.stringify(existing.input) === JSON.stringify(data.input)) return;
    throw new ConfigurationError(
      `Process id '${id}' already names a run of agent '${existing.agent}' with ${sameAgent ? "another input" : "its own input"} on queue '${this.queueName}'. A process id names one run: use a new id, or the same agent and input to get that run.`,
    );
  }

  private toProcess(checkpoint: ProcessCheckpoint, platform: AgentPlatform): AgentProcess {
    const agent = checkpoint.agentName === undefined ? undefined : platform.agent(checkpoint.agentName);
    return AgentProcess.fromCheckpoint(checkpoint, { platform, ...(agent ? { agent } : {}) });
  }

  private wire(platform: AgentPlatform): WireValues {
    const cached = this.wires.get(platform);
    if (cached && cached.count === platform.agents.length) return cached.wire;
    const wire = new WireValues(TypeRegistry.of(platform.agents, this.types));
    this.wires.set(platform, { count: platform.agents.length, wire });
    return wire;
  }

  /** Replays the worker's events of process `id` to these listeners; resolves when it reports `process-finished`. */
  private async subscribe(id: string, options: ProcessOptions): Promise<{ done: Promise<void> }> {
    if (!this.subscriber) {
      this.subscriber = this.redis.duplicate();
      this.subscriber.on("error", () => {});
      this.subscriber.on("message", (channel: string, message: string) => this.deliver(channel, message));
    }
    let finished: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    this.subscriptions.set(this.keys.events(id), {
      listeners: options.listeners,
      outputChannel: options.outputChannel,
      finished,
    });
    await this.subscriber.subscribe(this.keys.events(id));
    return { done };
  }

  private async unsubscribe(id: string): Promise<void> {
    const channel = this.keys.events(id);
    if (!this.subscriptions.delete(channel)) return;
    await this.subscriber?.unsubscribe(channel).catch(() => {});
  }

  private deliver(channel: string, message: string): void {
    const subscription = this.subscriptions.get(channel);
    if (!subscription) return;
    try {
      const wireEvent = parseEvent(message);
      if (wireEvent.kind === "output") {
        void Promise.resolve(
          subscription.outputChannel.send(wireEvent.event as unknown as Parameters<OutputChannel["send"]>[0]),
        ).catch(() => {});
        return;
      }
      const event = wireEvent.event as unknown as AgentProcessEvent;
      for (const listener of subscription.listeners) {
        try {
          listener(event);
        } catch {
          // A listener's failure must not change the run.
        }
      }
      if (event.type === "process-finished" && channel.endsWith(event.processId)) subscription.finished();
    } catch {
      // A malformed message is dropped; the checkpoint remains the truth.
    }
  }
}

/** A stored checkpoint's text with its status changed (the rest kept as written). */
function withStatus(text: string, status: AgentProcessStatus, reason: string): string {
  try {
    return JSON.stringify({ ...JSON.parse(text), status, statusReason: reason, endedAt: Date.now() });
  } catch {
    return text; // damaged: reading it says so
  }
}

/**
 * A stored checkpoint read without its values: the status, agent, times and
 * waits (plain JSON) over an empty blackboard, and the parsed text to write
 * back. Throws a `CheckpointError` when the text is not a checkpoint at all.
 */
function plainCheckpoint(
  text: string,
  id: string,
): { checkpoint: ProcessCheckpoint & { waiting?: WaitState }; stored: Record<string, unknown> } {
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(id, `it is not JSON (${(error as Error).message})`, { cause: error });
  }
  if (typeof stored !== "object" || stored === null || Array.isArray(stored))
    throw new CheckpointError(id, "it is not a JSON object");
  const record = stored as Record<string, unknown>;
  const status = record.status;
  if (typeof status !== "string" || !(AgentProcessStatus.ALL as readonly string[]).includes(status))
    throw new CheckpointError(id, `the field 'status' is missing or malformed`);
  const waiting = record.waiting as WaitState | undefined;
  if (
    waiting !== undefined &&
    (typeof waiting !== "object" ||
      waiting === null ||
      !Array.isArray(waiting.open) ||
      !Array.isArray(waiting.journal) ||
      !Array.isArray(waiting.answers) ||
      typeof waiting.nextId !== "number")
  )
    throw new CheckpointError(id, `the field 'waiting' is malformed`);
  if (status === "waiting" && waiting === undefined)
    throw new CheckpointError(id, `it is waiting but has no field 'waiting'`);
  const agentName = typeof record.agentName === "string" ? record.agentName : undefined;
  const base = queuedCheckpoint(id, agentName ?? "");
  return {
    stored: record,
    checkpoint: {
      ...base,
      agentName,
      status: status as AgentProcessStatus,
      statusReason: typeof record.statusReason === "string" ? record.statusReason : undefined,
      startedAt: typeof record.startedAt === "number" ? record.startedAt : base.startedAt,
      endedAt: typeof record.endedAt === "number" ? record.endedAt : undefined,
      ...(waiting === undefined ? {} : { waiting }),
    },
  };
}
