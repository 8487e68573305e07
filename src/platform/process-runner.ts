import type { Agent } from "./agent-interface.js";
import type { AgentPlatformApi } from "./agent-platform-api.js";
import type { AgentProcess } from "./agent-process.js";
import type { AwaitableResponse, RespondOptions } from "./awaitable.js";
import type { ProcessCheckpoint } from "./process-checkpoint.js";
import type { ProcessOptions } from "./process-options.js";

/** Options of `platform.runAgent` and `platform.runInProcess`. */
export interface RunProcessOptions {
  /** @default ProcessOptions.DEFAULT */
  readonly processOptions?: ProcessOptions;
  /** Aborting it kills the process. */
  readonly signal?: AbortSignal;
  /** The process starting this one: recorded as `parentId`; killing the parent kills the child; the child's LLM usage counts toward the parent's, and the parent's token and cost budgets bound it. */
  readonly parent?: AgentProcess;
  /** The new process's id (runners that queue a run choose it up front). @default a random UUID */
  readonly id?: string;
  /** Continue this process (same id, blackboard, history, usage, budget spent) instead of starting a new one; `input` is then ignored. The planner replans from the restored blackboard. @default undefined */
  readonly checkpoint?: ProcessCheckpoint;
  /** Awaited after each action of the agent's own loop (not its subagents'), before the next plan: runners checkpoint here. A throw ends the process `failed` with that error. @default undefined */
  readonly afterAction?: (process: AgentProcess) => void | Promise<void>;
}

/** A started agent run: its id at once; the finished process later. */
export interface ProcessHandle {
  /** The process id (`platform.process(id)` finds it). */
  readonly id: string;
  /** Resolves to the finished process (status, result, blackboard, history, usage, cost). */
  result(): Promise<AgentProcess>;
  /** Kills the process wherever it runs; it ends `killed`. */
  kill(reason?: string): Promise<void>;
}

/**
 * Where a platform's agent processes run: in the caller's Node process (the
 * default, {@link InProcessRunner}), or on workers behind a queue
 * (`BullMqRunner` in `embabel-ts/distributed`). Subagents always run in
 * their parent's process.
 */
export interface ProcessRunner {
  /** Starts `agent` (an agent, or the name of one the runner's workers know) on `input`; resolves once the run is accepted. */
  start(
    agent: Agent | string,
    input: unknown,
    options: RunProcessOptions,
    platform: AgentPlatformApi,
  ): Promise<ProcessHandle>;
  /** The process with this id as it is now (finished or not), or `undefined` when unknown. */
  process(id: string, platform: AgentPlatformApi): Promise<AgentProcess | undefined>;
  /** Answers request `requestId` of waiting process `id` (see `AgentPlatform.respond`); absent: the runner cannot answer waits. */
  respond?(
    id: string,
    requestId: string,
    response: AwaitableResponse,
    options: RespondOptions,
    platform: AgentPlatformApi,
  ): Promise<AgentProcess>;
  /** Releases connections and stops accepting runs. */
  close(): Promise<void>;
}
