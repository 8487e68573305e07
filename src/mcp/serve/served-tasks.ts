import { randomUUID } from "node:crypto";
import {
  type CallToolResult,
  type McpServer,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { Logger } from "../../tool/logger.js";
import type { McpInputRequest, McpInputRequirement } from "./mcp-server-call.js";
import { FINAL_TASK_STATUSES, InMemoryMcpTaskStore, type McpTask, type McpTaskStore } from "./task-store.js";

// The tasks extension of MCP 2026-07-28 (SEP-2663), served: a call to a tool
// that runs as a task is answered at once with `resultType: "task"` once the
// task is stored; the work goes on in this process, and the client polls
// `tasks/get`, answers what the task asks with `tasks/update` and stops it
// with `tasks/cancel`. The SDK (2.4.0) has no tasks support, so the methods
// are served here by hand.

/** The extension's identifier, in `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/**
 * How a served tool runs as a task: `"optional"`, as a task when the client
 * declares the tasks extension, else answered in the call as before;
 * `"required"`, only as a task (a client without the extension is refused
 * with the error -32021).
 */
export type McpTaskSupport = "optional" | "required";

/** A tool's task support, and which of its calls run as tasks. */
export interface McpTaskTool {
  readonly support: McpTaskSupport;
  /**
   * Whether this call runs as a task, decided before it runs; a call it
   * declines is answered in the request (and may ask for input there first,
   * `McpServerCall.requireInput`), whatever `support` says. @default every call
   */
  readonly when?: (call: McpTaskCall) => boolean;
}

/** What {@link McpTaskTool.when} decides on. */
export interface McpTaskCall {
  /** The call's arguments. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The client's answers when the call is the retry of a round that asked for input (MCP 2026-07-28). */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
}

/** Option `tasks` of `createMcpServer`: which tools run as tasks (MCP 2026-07-28, the tasks extension). */
export interface McpServerTasksOptions {
  /**
   * Served agents (`platform`): run as tasks when the client declares the
   * extension (`"optional"`), always (`"required"`), or never. @default "optional"
   */
  readonly agents?: McpTaskSupport | "never";
  /** Served tools that run as tasks, by name (the long-running ones). @default none */
  readonly tools?: Readonly<Record<string, McpTaskSupport | McpTaskTool>>;
  /** How long a task is kept after it was created; one still running then is cancelled. @default 3600000 (an hour) */
  readonly ttlMs?: number;
  /** How often clients are asked to poll `tasks/get`. @default 1000 */
  readonly pollIntervalMs?: number;
  /**
   * Where tasks are kept. The work of a task runs in the process that created
   * it: with a shared store any process answers `tasks/get`, but `tasks/update`
   * and `tasks/cancel` reach the work only in that process.
   * @default one store in this process's memory, shared by its servers
   */
  readonly store?: McpTaskStore;
}

/** One round of a task's work: with nothing at first, then with the answers to what the last round asked. */
export interface TaskRound {
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The state the last round gave with its questions (kept by the server, never sent to the client). */
  readonly requestState?: unknown;
  /** Aborted when the task is cancelled or expires. */
  readonly signal: AbortSignal;
}

/** How a round ended: with the tool's result, or asking the client for input. */
export type TaskRoundOutcome = { readonly result: CallToolResult } | { readonly input: McpInputRequirement };

/** The work of one task, round by round. */
export type TaskWork = (round: TaskRound) => Promise<TaskRoundOutcome>;

/** The work of a task running in this process. */
interface Run {
  readonly controller: AbortController;
  /** Wakes the work waiting for answers, with all of them. */
  answered?: (responses: Readonly<Record<string, unknown>>) => void;
  readonly expiry: ReturnType<typeof setTimeout>;
}

const DEFAULT_TTL_MS = 3_600_000;
const DEFAULT_POLL_MS = 1_000;

/** The process-wide store of servers given none. */
const processStore = new InMemoryMcpTaskStore();
/** Tasks whose work runs in this process, by id (every server of the process shares it). */
const runs = new Map<string, Run>();

function positiveWhole(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigurationError(
      `createMcpServer: tasks.${name} must be a positive whole number of milliseconds; got ${value}.`,
    );
  }
  return value;
}

/** The JSON-RPC error of a task the work failed with. */
function errorOf(error: unknown): NonNullable<McpTask["error"]> {
  if (error instanceof ProtocolError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  }
  return {
    code: ProtocolErrorCode.InternalError,
    message: error instanceof Error ? error.message : String(error),
  };
}

/** Whether the request's client declared the tasks extension (its own capabilities, MCP 2026-07-28). */
export function declaresTasks(server: McpServer, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = (envelope?.clientCapabilities ??
    envelope?.["io.modelcontextprotocol/clientCapabilities"]) as
    | { extensions?: Record<string, unknown> }
    | undefined;
  const capabilities = fromEnvelope ?? server.server.getClientCapabilities();
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return envelope !== undefined && extensions?.[TASKS_EXTENSION] !== undefined;
}

/** The -32021 error naming the tasks extension. */
export function tasksRequired(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as never,
    `${what} needs the client capability extensions["${TASKS_EXTENSION}"].`,
  );
}

/**
 * The tasks of the servers built with one `tasks` option: starts them,
 * answers `tasks/get`, `tasks/update` and `tasks/cancel`.
 */
export class ServedTasks {
  readonly agents: McpTaskSupport | "never";
  private readonly tools: ReadonlyMap<string, McpTaskTool>;
  private readonly store: McpTaskStore;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;

  constructor(options: McpServerTasksOptions) {
    this.agents = options.agents ?? "optional";
    if (!["optional", "required", "never"].includes(this.agents)) {
      throw new ConfigurationError(
        `createMcpServer: tasks.agents must be "optional", "required" or "never"; got ${JSON.stringify(this.agents)}.`,
      );
    }
    const tools = new Map<string, McpTaskTool>();
    for (const [name, given] of Object.entries(options.tools ?? {})) {
      const tool = typeof given === "string" ? { support: given } : given;
      if (tool.support !== "optional" && tool.support !== "required") {
        throw new ConfigurationError(
          `createMcpServer: tasks.tools['${name}'] must be "optional" or "required"; got ${JSON.stringify(tool.support)}.`,
        );
      }
      tools.set(name, tool);
    }
    this.tools = tools;
    this.store = options.store ?? processStore;
    this.ttlMs = positiveWhole(options.ttlMs, DEFAULT_TTL_MS, "ttlMs");
    this.pollIntervalMs = positiveWhole(options.pollIntervalMs, DEFAULT_POLL_MS, "pollIntervalMs");
  }

  /** The names of the tools given task support (to check they are served). */
  get toolNames(): readonly string[] {
    return [...this.tools.keys()];
  }

  /** How the tool `name` runs as a task for `call` (`agent`: it is a served agent); `undefined`: in the call. */
  supportFor(name: string, agent: boolean, call: McpTaskCall): McpTaskSupport | undefined {
    const tool = this.tools.get(name);
    if (tool) return (tool.when?.(call) ?? true) ? tool.support : undefined;
    return agent && this.agents !== "never" ? this.agents : undefined;
  }

  /**
   * Stores a new `working` task of `owner`, starts `work` in the background
   * and resolves with the `CreateTaskResult` (after the task is stored).
   */
  async start(owner: string, work: TaskWork): Promise<CallToolResult> {
    const now = new Date().toISOString();
    const task: McpTask = {
      taskId: randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      owner,
    };
    await this.store.create(task);
    const controller = new AbortController();
    const expiry = setTimeout(() => {
      controller.abort(new Error("The task expired."));
      runs.delete(task.taskId);
      void this.store.delete(task.taskId);
    }, this.ttlMs);
    expiry.unref();
    const run: Run = { controller, expiry };
    runs.set(task.taskId, run);
    void this.drive(task.taskId, run, work);
    const { owner: _owner, ...shown } = task;
    return { resultType: "task", ...shown } as unknown as CallToolResult;
  }

  /** Runs `work` round by round until it ends, is cancelled or expires; records each step. */
  private async drive(taskId: string, run: Run, work: TaskWork): Promise<void> {
    const { signal } = run.controller;
    let round: Omit<TaskRound, "signal"> = {};
    try {
      for (;;) {
        const outcome = await work({ ...round, signal });
        if (signal.aborted) return;
        if ("result" in outcome) {
          await this.settle(taskId, { status: "completed", result: outcome.result });
          return;
        }
        const { inputRequests, state } = outcome.input;
        const answered = new Promise<Readonly<Record<string, unknown>>>((resolve) => {
          run.answered = resolve;
        });
        const asked = await this.settle(taskId, {
          status: "input_required",
          inputRequests,
          inputResponses: {},
        });
        if (!asked) return;
        const inputResponses = await Promise.race([answered, aborted(signal)]);
        if (inputResponses === undefined) return;
        round = { inputResponses, ...(state === undefined ? {} : { requestState: state }) };
      }
    } catch (error) {
      if (!signal.aborted) await this.settle(taskId, { status: "failed", error: errorOf(error) });
    } finally {
      if (runs.get(taskId) === run) {
        runs.delete(taskId);
        clearTimeout(run.expiry);
      }
    }
  }

  /** Moves a task that is not final yet on to `change`; whether it did. */
  private async settle(taskId: string, change: Pick<McpTask, "status"> & Partial<McpTask>): Promise<boolean> {
    let moved = false;
    await this.store
      .update(taskId, (task) => {
        if (FINAL_TASK_STATUSES.has(task.status)) return undefined;
        moved = true;
        const { inputRequests: _asked, inputResponses: _answered, statusMessage: _message, ...rest } = task;
        return { ...rest, ...change, lastUpdatedAt: new Date().toISOString() };
      })
      .catch((error: unknown) => {
        Logger.current().warn(`MCP task ${taskId}: the task store failed: ${(error as Error).message}`);
      });
    return moved;
  }

  /** The task `taskId` of `owner`; -32602 when unknown, expired or someone else's. */
  private async find(taskId: string, owner: string): Promise<McpTask> {
    const task = await this.store.get(taskId);
    if (!task || task.owner !== owner) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);
    }
    return task;
  }

  /** `tasks/get`: the task's status, with its result, error or the input it waits for. */
  async get(taskId: string, owner: string): Promise<Record<string, unknown>> {
    const { owner: _owner, inputResponses: _answered, ...shown } = await this.find(taskId, owner);
    return { resultType: "complete", ...shown };
  }

  /**
   * `tasks/update`: records the answers to what the task asks (answers to
   * anything else are ignored); once every question is answered, the work
   * goes on with all of them.
   */
  async update(taskId: string, owner: string, inputResponses: Readonly<Record<string, unknown>>) {
    await this.find(taskId, owner);
    let complete: Readonly<Record<string, unknown>> | undefined;
    await this.store.update(taskId, (task) => {
      if (task.status !== "input_required" || !task.inputRequests) return undefined;
      const pending: Record<string, McpInputRequest> = { ...task.inputRequests };
      const answers: Record<string, unknown> = { ...task.inputResponses };
      let changed = false;
      for (const [key, answer] of Object.entries(inputResponses)) {
        if (!Object.hasOwn(pending, key)) continue;
        answers[key] = answer;
        delete pending[key];
        changed = true;
      }
      if (!changed) return undefined;
      const now = new Date().toISOString();
      if (Object.keys(pending).length > 0) {
        return { ...task, inputRequests: pending, inputResponses: answers, lastUpdatedAt: now };
      }
      complete = answers;
      const { inputRequests: _asked, inputResponses: _answered, ...rest } = task;
      return { ...rest, status: "working", lastUpdatedAt: now };
    });
    if (complete) {
      const run = runs.get(taskId);
      if (run?.answered) run.answered(complete);
      else {
        await this.settle(taskId, {
          status: "failed",
          error: {
            code: ProtocolErrorCode.InternalError,
            message: "The task's work is not running in this server process any more.",
          },
        });
      }
    }
    return { resultType: "complete" };
  }

  /** `tasks/cancel`: a task still running ends `cancelled` and its work is aborted; a final one stays as it is. */
  async cancel(taskId: string, owner: string) {
    await this.find(taskId, owner);
    await this.settle(taskId, { status: "cancelled", statusMessage: "Cancelled by the client." });
    const run = runs.get(taskId);
    run?.controller.abort(new Error("The task was cancelled."));
    return { resultType: "complete" };
  }
}

/** Resolves `undefined` when `signal` aborts. */
function aborted(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener("abort", () => resolve(undefined), { once: true });
  });
}

const TaskIdParams = z.looseObject({ taskId: z.string() });

/** Whose a request's tasks are: the authenticated client's id, `""` without authentication. */
export function taskOwner(ctx: ServerContext): string {
  return ctx.http?.authInfo?.clientId ?? "";
}

/**
 * Serves `tasks/get`, `tasks/update` and `tasks/cancel` on `server` (MCP
 * 2026-07-28 requests only; a client that did not declare the extension gets
 * -32021). A task is found only by the client that created it.
 */
export function serveTaskMethods(server: McpServer, tasks: ServedTasks): void {
  const owner = taskOwner;
  const guard = (ctx: ServerContext, method: string): void => {
    if (ctx.mcpReq.envelope === undefined || Object.keys(ctx.mcpReq.envelope).length === 0) {
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
    }
    if (!declaresTasks(server, ctx)) throw tasksRequired(method);
  };
  server.server.setRequestHandler("tasks/get", { params: TaskIdParams }, async (params, ctx) => {
    guard(ctx, "tasks/get");
    return tasks.get(params.taskId, owner(ctx));
  });
  // The SDK lifts `inputResponses` out of the params (as for a retried tools/call) into the context.
  server.server.setRequestHandler("tasks/update", { params: TaskIdParams }, async (params, ctx) => {
    guard(ctx, "tasks/update");
    const inputResponses = ctx.mcpReq.inputResponses;
    if (inputResponses === undefined || typeof inputResponses !== "object") {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "tasks/update needs inputResponses.");
    }
    return tasks.update(params.taskId, owner(ctx), inputResponses as Readonly<Record<string, unknown>>);
  });
  server.server.setRequestHandler("tasks/cancel", { params: TaskIdParams }, async (params, ctx) => {
    guard(ctx, "tasks/cancel");
    return tasks.cancel(params.taskId, owner(ctx));
  });
}
