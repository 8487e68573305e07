import type { Job, Queue, Worker } from "bullmq";
import { CheckpointError } from "../errors/checkpoint-error.js";
import { SerializationError } from "../errors/serialization-error.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { AgentProcessStatus } from "../platform/agent-process-status.js";
import { InProcessRunner } from "../platform/in-process-runner.js";
import type { OutputChannel } from "../platform/output-channel.js";
import type { ProcessCheckpoint } from "../platform/process-checkpoint.js";
import { ProcessOptions } from "../platform/process-options.js";
import { ProcessWaits } from "../platform/process-waits.js";
import { Verbosity } from "../platform/verbosity.js";
import { Logger } from "../tool/logger.js";
import type { ToolCallContextInit } from "../tool/tool-call-context.js";
import { decodeCheckpoint, encodeCheckpoint } from "./checkpoint-codec.js";
import { type ConnectionWatch, watchConnection } from "./connection-watch.js";
import { type Fence, saveIfLockHeld } from "./fenced-save.js";
import { loadQueueLibraries, type RedisClient } from "./load-bullmq.js";
import { connectRedis, DEFAULT_QUEUE, eventJson, queueKeys, type RunJobData } from "./queue-protocol.js";
import { queuedCheckpoint } from "./queued-checkpoint.js";
import { RunLease } from "./run-lease.js";
import { type RegisteredType, TypeRegistry } from "./type-registry.js";
import { WireValues } from "./wire-value.js";

/** Options of {@link AgentWorker.start}. */
export interface AgentWorkerOptions {
  /** The Redis URL (`redis://host:port`). */
  readonly connection: string;
  /** The platform whose deployed agents this worker runs (and whose models they use), or a factory called once per run with the agent's name (for example to give each run a fresh scripted model). */
  readonly platform: AgentPlatform | ((agentName: string) => AgentPlatform);
  /** The BullMQ queue name; the same as the runners'. @default "embabel-agents" */
  readonly queue?: string;
  /** How many processes this worker runs at once. @default 10 */
  readonly concurrency?: number;
  /** Types blackboard objects may have beyond what the deployed agents declare: classes, `domainType`s or codecs. @default [] */
  readonly types?: Iterable<RegisteredType>;
  /** How long finished processes' checkpoints stay in Redis. @default 86_400 (one day) */
  readonly keepFinishedSeconds?: number;
  /** How long a worker's hold on a run lasts without renewal (BullMQ `lockDuration`): a dead worker's runs go to another worker after it, and a worker that could not renew for this long (Redis unreachable) stops the run and writes nothing more. @default 30_000 */
  readonly lockDurationMs?: number;
  /** How often this worker looks for runs whose worker died (BullMQ `stalledInterval`). @default 30_000 */
  readonly stalledIntervalMs?: number;
  /** How many times a run may be taken over from a dead worker before it fails. @default 3 */
  readonly maxStalledCount?: number;
  /** Told of each process this worker finished; `resumed` when it continued another worker's checkpoint. @default undefined */
  readonly onFinished?: (process: AgentProcess, details: { readonly resumed: boolean }) => void;
}

/** Why a run was stopped on this worker: it is no longer this worker's (see {@link RunLease}). */
class LeaseLost extends Error {
  constructor(reason: string) {
    super(`This worker lost the run: ${reason}`);
    this.name = "LeaseLost";
  }

  static isLeaseLost(error: unknown): boolean {
    return error instanceof LeaseLost;
  }
}

/** Tells BullMQ the job was handed back (its `WaitingError` protocol): neither completed nor failed. */
class BackOnQueue extends Error {
  constructor(id: string) {
    super(`Process ${id} was handed back to the queue`);
    this.name = "WaitingError";
  }
}

/** What a worker's job resolves to in BullMQ (the checkpoint in Redis holds the rest). */
interface JobOutcome {
  readonly status: AgentProcessStatus;
}

/**
 * Runs queued agent processes (`BullMqRunner`'s runs) on a platform: restores
 * each from its last checkpoint when it has one (a worker died mid-run) and
 * lets the planner go on from the blackboard, checkpoints it to Redis after
 * every action, and stores the finished process. Any number of workers on any
 * number of machines can serve one queue; a run belongs to one of them at a
 * time (each checkpoint write checks the run's lock, and a worker that lost
 * the lock stops the run: see docs/reliability.md).
 */
export class AgentWorker {
  private readonly keys: ReturnType<typeof queueKeys>;
  /** The runs in progress, by process id (a run this worker lost and took again is there twice, briefly). */
  private readonly running = new Map<string, Set<AbortController>>();
  private readonly wires = new WeakMap<AgentPlatform, WireValues>();
  private readonly types: readonly RegisteredType[];
  private readonly keepFinishedSeconds: number;
  private readonly lockDurationMs: number;
  private worker: Worker | undefined;
  private watch: ConnectionWatch | undefined;

  private constructor(
    /** The queue's name. */
    readonly queueName: string,
    private readonly options: AgentWorkerOptions,
    private readonly redis: RedisClient,
    private readonly subscriber: RedisClient,
  ) {
    this.keys = queueKeys(queueName);
    this.types = [...(options.types ?? [])];
    this.keepFinishedSeconds = options.keepFinishedSeconds ?? 86_400;
    this.lockDurationMs = options.lockDurationMs ?? 30_000;
  }

  /** Connects and starts taking runs; rejects at once, naming the URL, when Redis cannot be reached. */
  static async start(options: AgentWorkerOptions): Promise<AgentWorker> {
    const libraries = await loadQueueLibraries();
    const redis = await connectRedis(libraries, options.connection);
    const subscriber = redis.duplicate();
    subscriber.on("error", () => {});
    const name = options.queue ?? DEFAULT_QUEUE;
    const worker = new AgentWorker(name, options, redis, subscriber);
    subscriber.on("message", (_channel: string, message: string) => worker.onKill(message));
    await subscriber.subscribe(worker.keys.killChannel);
    worker.worker = new libraries.bullmq.Worker(
      name,
      (job: Job, token?: string) => worker.process(job, token ?? ""),
      {
        connection: { url: options.connection, maxRetriesPerRequest: null },
        concurrency: options.concurrency ?? 10,
        lockDuration: worker.lockDurationMs,
        stalledInterval: options.stalledIntervalMs ?? 30_000,
        maxStalledCount: options.maxStalledCount ?? 3,
      },
    );
    // Connection drops are retried by BullMQ; one line when Redis goes and when it is back.
    worker.watch = watchConnection(
      options.connection,
      `worker (queue '${name}')`,
      [worker.worker, redis, subscriber],
      redis,
    );
    await worker.worker.waitUntilReady();
    return worker;
  }

  /** How many processes this worker is running now. */
  get activeCount(): number {
    let count = 0;
    for (const runs of this.running.values()) count += runs.size;
    return count;
  }

  /** Stops taking runs; waits for the running ones to finish unless `force`, then disconnects. */
  async close(options: { readonly force?: boolean } = {}): Promise<void> {
    this.watch?.stop();
    await this.worker?.close(options.force ?? false);
    await this.queueForDeadlines?.close();
    this.subscriber.disconnect();
    this.redis.disconnect();
  }

  private onKill(message: string): void {
    try {
      const { id, reason } = JSON.parse(message) as { id: string; reason: string };
      for (const controller of this.running.get(id) ?? []) controller.abort(new Error(reason));
    } catch {
      // Not one of ours.
    }
  }

  private async process(job: Job, token: string): Promise<JobOutcome> {
    const data = job.data as RunJobData;
    // A resume job (after a wait was answered) names its process; a first run's job id is the process id.
    const id = data.processId ?? (job.id as string);
    const controller = new AbortController();
    // From here on, every write of this run's checkpoint checks that the run is still this worker's.
    const fence: Fence = { lockKey: `${job.queueQualifiedName}:${job.id as string}:lock`, token };
    const lease = RunLease.start(job, token, {
      lockDurationMs: this.lockDurationMs,
      // The lock was taken when the job was fetched, no later than now.
      startedAt: Math.min(Date.now(), job.processedOn ?? Date.now()),
      onLost: (reason) => controller.abort(new LeaseLost(reason)),
    });
    const runs = this.running.get(id) ?? new Set<AbortController>();
    runs.add(controller);
    this.running.set(id, runs);
    try {
      const outcome = await this.run(job, data, fence, controller);
      if (lease.held && outcome !== "lost") return outcome;
      Logger.current().warn(
        `worker (queue '${this.queueName}'): stopped process ${id}: ${lease.lostReason ?? "its lock is no longer this worker's"}; its checkpoint was left to the worker that owns the run now`,
      );
      // If the lock was ours after all (Redis slow, not gone), the run goes back on the queue and
      // continues from its checkpoint; if not, Redis refuses (the token no longer matches).
      await job.moveToWait(token).catch(() => {});
      throw new BackOnQueue(id);
    } finally {
      lease.end();
      runs.delete(controller);
      if (runs.size === 0 && this.running.get(id) === runs) this.running.delete(id);
    }
  }

  /** Runs (or continues) the job's process; `"lost"` when a fenced write found the run no longer this worker's. */
  private async run(
    job: Job,
    data: RunJobData,
    fence: Fence,
    controller: AbortController,
  ): Promise<JobOutcome | "lost"> {
    const id = data.processId ?? (job.id as string);
    const platform =
      typeof this.options.platform === "function" ? this.options.platform(data.agent) : this.options.platform;
    const wire = this.wire(platform);
    let checkpoint: ProcessCheckpoint | undefined;
    let input: unknown;
    try {
      const stored = await this.redis.get(this.keys.checkpoint(id));
      checkpoint = stored === null ? undefined : decodeCheckpoint(stored, wire, id);
      if (!checkpoint) input = wire.decode(data.input, "the input");
    } catch (error) {
      if (!SerializationError.isInstance(error) && !CheckpointError.isInstance(error)) throw error;
      return this.end(id, data.agent, error.message, error, wire, fence);
    }
    if (checkpoint && AgentProcessStatus.isFinished(checkpoint.status)) return { status: checkpoint.status };
    if (checkpoint?.status === "waiting") {
      // A waiting process runs on only once nothing is open (answered, or past its deadline).
      const waits = new ProcessWaits(checkpoint.waiting);
      const expired = waits.expire(Date.now());
      if (waits.requests.length > 0) return { status: "waiting" };
      if (expired.length > 0) checkpoint = { ...checkpoint, waiting: waits.state() };
    }
    const agent = platform.agent(data.agent);
    if (!agent) {
      const deployed = platform.agents.map((each) => each.name).join(", ");
      return this.end(
        id,
        data.agent,
        `No agent named '${data.agent}' is deployed on the workers of queue '${this.queueName}'. Deployed agents: [${deployed}]`,
        undefined,
        wire,
        fence,
      );
    }
    const killed = await this.redis.get(this.keys.kill(id));
    if (killed !== null) controller.abort(new Error(killed));
    const process = await platform.runAgent(agent, input, {
      id,
      ...(checkpoint ? { checkpoint } : {}),
      processOptions: this.processOptions(id, data, wire),
      signal: controller.signal,
      afterAction: async (current) => {
        const text = encodeCheckpoint(current.checkpoint(), wire);
        if (!(await saveIfLockHeld(this.redis, fence, this.keys.checkpoint(id), text))) {
          controller.abort(
            new LeaseLost("another worker owns the run now (its checkpoint write was refused)"),
          );
        }
      },
    });
    if (LeaseLost.isLeaseLost(controller.signal.reason)) return "lost";
    if (process.status === "waiting") {
      if (!(await this.saveWaiting(process, data, wire, fence))) return "lost";
    } else if (!(await this.saveFinished(process, wire, fence))) return "lost";
    try {
      this.options.onFinished?.(process, { resumed: checkpoint !== undefined });
    } catch {
      // A reporting hook must not fail the run.
    }
    return { status: process.status };
  }

  /**
   * Stores a process waiting for a person (no expiry: the answer may come
   * much later), lists it as waiting, lets go of it here (the worker slot is
   * free), and queues a resume at its earliest deadline. Fenced like every
   * other checkpoint write: `false`, and nothing written, when the run is no
   * longer this worker's.
   */
  private async saveWaiting(
    process: AgentProcess,
    data: RunJobData,
    wire: WireValues,
    fence: Fence,
  ): Promise<boolean> {
    const id = process.id;
    const text = encodeCheckpoint(process.checkpoint(), wire);
    const saved = await saveIfLockHeld(this.redis, fence, this.keys.checkpoint(id), text, 0, {
      set: this.keys.waiting,
      member: id,
    });
    if (!saved) return false;
    const runner = (process.platform as { runner?: unknown } | undefined)?.runner;
    if (runner instanceof InProcessRunner) runner.release(id);
    const deadline = Math.min(
      ...process.awaiting.map((request) => request.deadline ?? Number.POSITIVE_INFINITY),
    );
    if (Number.isFinite(deadline) && this.worker !== undefined) {
      const queue = await this.deadlineQueue();
      await queue.add(
        data.agent,
        { ...data, processId: id, events: false },
        {
          jobId: `${id}-deadline-${deadline}`,
          delay: Math.max(0, deadline - Date.now()),
          removeOnComplete: true,
        },
      );
    }
    return true;
  }

  private queueForDeadlines: Queue | undefined;

  private async deadlineQueue(): Promise<Queue> {
    if (!this.queueForDeadlines) {
      const libraries = await loadQueueLibraries();
      this.queueForDeadlines = new libraries.bullmq.Queue(this.queueName, {
        connection: { url: this.options.connection, maxRetriesPerRequest: null },
      });
    }
    return this.queueForDeadlines;
  }

  /** Ends a process that could not run: a failed checkpoint saying why. */
  private async end(
    id: string,
    agentName: string,
    reason: string,
    failure: unknown,
    wire: WireValues,
    fence: Fence,
  ): Promise<JobOutcome | "lost"> {
    const checkpoint = queuedCheckpoint(id, agentName, { status: "failed", reason, failure });
    if (!(await this.save(id, encodeCheckpoint(checkpoint, wire), fence))) return "lost";
    return { status: "failed" };
  }

  /** Stores the finished process; one whose objects cannot be serialised is stored `failed`, naming the type. */
  private async saveFinished(process: AgentProcess, wire: WireValues, fence: Fence): Promise<boolean> {
    const checkpoint = process.checkpoint();
    let text: string;
    try {
      text = encodeCheckpoint(checkpoint, wire);
    } catch (error) {
      if (!SerializationError.isInstance(error)) throw error;
      text = encodeCheckpoint(
        {
          ...checkpoint,
          status: "failed",
          statusReason: error.message,
          failure: error,
          result: undefined,
          blackboard: { objects: [], hidden: [], bindings: [], protectedNames: [], conditions: [] },
        },
        wire,
      );
    }
    return this.save(process.id, text, fence);
  }

  /**
   * Stores a finished checkpoint for `keepFinishedSeconds` and takes the run
   * off the waiting list, if the run is still this worker's.
   */
  private async save(id: string, text: string, fence: Fence): Promise<boolean> {
    const saved = await saveIfLockHeld(
      this.redis,
      fence,
      this.keys.checkpoint(id),
      text,
      this.keepFinishedSeconds,
    );
    if (saved) await this.redis.srem(this.keys.waiting, id);
    return saved;
  }

  private processOptions(id: string, data: RunJobData, wire: WireValues): ProcessOptions {
    let options = new ProcessOptions({
      contextId: data.contextId,
      toolCallContext: wire.decode(data.toolCallContext, "the tool-call context") as ToolCallContextInit,
      budget: data.budget,
      verbosity: new Verbosity(data.verbosity),
    });
    if (!data.events) return options;
    const channel = this.keys.events(id);
    const publish = (kind: "event" | "output", event: object) => {
      this.redis.publish(channel, eventJson(kind, event)).catch(() => {});
    };
    const outputChannel: OutputChannel = { send: (event) => publish("output", event) };
    options = options.withListener((event) => publish("event", event)).withOutputChannel(outputChannel);
    return options;
  }

  private wire(platform: AgentPlatform): WireValues {
    let wire = this.wires.get(platform);
    if (!wire) {
      wire = new WireValues(TypeRegistry.of(platform.agents, this.types));
      this.wires.set(platform, wire);
    }
    return wire;
  }
}
