import type { Agent } from "./agent.js";
import type { AgentPlatform } from "./agent-platform.js";
import type { AgentProcess } from "./agent-process.js";
import type { AwaitableResponse, RespondOptions } from "./awaitable.js";
import type { RunProcessOptions } from "./process-launcher.js";

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
    platform: AgentPlatform,
  ): Promise<ProcessHandle>;
  /** The process with this id as it is now (finished or not), or `undefined` when unknown. */
  process(id: string, platform: AgentPlatform): Promise<AgentProcess | undefined>;
  /** Answers request `requestId` of waiting process `id` (see `AgentPlatform.respond`); absent: the runner cannot answer waits. */
  respond?(
    id: string,
    requestId: string,
    response: AwaitableResponse,
    options: RespondOptions,
    platform: AgentPlatform,
  ): Promise<AgentProcess>;
  /** Releases connections and stops accepting runs. */
  close(): Promise<void>;
}
