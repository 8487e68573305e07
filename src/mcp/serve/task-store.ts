import type { McpInputRequest } from "./mcp-server-call.js";

// The state of tasks a served MCP server runs (the tasks extension of MCP
// 2026-07-28, SEP-2663), behind an interface: in memory in this process by
// default; a shared store (Redis) can stand behind it so any server process
// answers `tasks/get` for a task another one created.

/** Where a task stands. `completed`, `failed` and `cancelled` are final. */
export type McpTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** The final statuses: a task in one of them never changes again. */
export const FINAL_TASK_STATUSES: ReadonlySet<McpTaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** One task as stored: what `tasks/get` answers, and whose it is. */
export interface McpTask {
  /** Random and unguessable (the server mints it). */
  readonly taskId: string;
  readonly status: McpTaskStatus;
  /** A sentence on the status, for people. */
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** How long after `createdAt` the task is kept (then forgotten, and cancelled if still running). */
  readonly ttlMs: number;
  /** How often the client is asked to poll. */
  readonly pollIntervalMs: number;
  /** Who created it: the authenticated client's id, `""` without authentication. Others cannot see it. */
  readonly owner: string;
  /** The tool's result, once `completed` (an `isError` result is still `completed`). */
  readonly result?: Readonly<Record<string, unknown>>;
  /** Why it `failed` (a JSON-RPC error). */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** While `input_required`: what the client is asked, by key (the keys not answered yet). */
  readonly inputRequests?: Readonly<Record<string, McpInputRequest>>;
  /** While `input_required`: the answers received so far in this round, by key. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
}

/**
 * Where served tasks are kept. Every method may be asynchronous, so the
 * store can be shared between server processes; `update` must apply its
 * change atomically (no other change between reading and writing).
 */
export interface McpTaskStore {
  /** Stores a new task; resolves once a `get` of it would find it. */
  create(task: McpTask): Promise<void>;
  /** The task, unless unknown or expired (past `createdAt + ttlMs`). */
  get(taskId: string): Promise<McpTask | undefined>;
  /**
   * Replaces the task with `change(task)` (unchanged when it returns
   * `undefined`); resolves with the task as stored afterwards, `undefined`
   * when unknown or expired.
   */
  update(taskId: string, change: (task: McpTask) => McpTask | undefined): Promise<McpTask | undefined>;
  /** Forgets the task. */
  delete(taskId: string): Promise<void>;
}

/** Whether `task` is past its time to live at `now` (epoch ms). */
export function isExpired(task: McpTask, now = Date.now()): boolean {
  return Date.parse(task.createdAt) + task.ttlMs <= now;
}

/**
 * Tasks in this process's memory, at most `maxTasks` (beyond it the oldest
 * is forgotten); expired ones are dropped when met.
 */
export class InMemoryMcpTaskStore implements McpTaskStore {
  private readonly tasks = new Map<string, McpTask>();

  constructor(private readonly maxTasks = 10_000) {}

  async create(task: McpTask): Promise<void> {
    this.tasks.set(task.taskId, task);
    while (this.tasks.size > this.maxTasks) this.tasks.delete(this.tasks.keys().next().value as string);
  }

  async get(taskId: string): Promise<McpTask | undefined> {
    const task = this.tasks.get(taskId);
    if (task && isExpired(task)) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  async update(taskId: string, change: (task: McpTask) => McpTask | undefined): Promise<McpTask | undefined> {
    const task = await this.get(taskId);
    if (!task) return undefined;
    const changed = change(task);
    if (changed) this.tasks.set(taskId, changed);
    return changed ?? task;
  }

  async delete(taskId: string): Promise<void> {
    this.tasks.delete(taskId);
  }
}
