import type { PromptRunner } from "../prompt/prompt-runner.js";
import type { AgentProcess } from "./agent-process.js";
import type { Blackboard } from "./blackboard.js";
import type { EmbedOptions } from "./embed-options.js";
import type { ProcessOptions } from "./process-options.js";

/**
 * What an action (or a function run with `platform.runInProcess`) receives:
 * its process, the blackboard, a prompt runner, and ways to talk to the user.
 */
export interface OperationContext {
  /** The process the operation runs in. */
  readonly process: AgentProcess;
  /** The process's blackboard. */
  readonly blackboard: Blackboard;
  /** The process's options. */
  readonly processOptions: ProcessOptions;
  /** The running action's name; `undefined` in `runInProcess`. */
  readonly action: string | undefined;
  /** Aborted when the process is killed. */
  readonly signal: AbortSignal;
  /** A prompt runner on the platform's default model; inside the process its context, budget and events apply. */
  ai(): PromptRunner;
  /**
   * Embeds `texts` with the platform's embedding model (`options.model` or
   * `options.role`, default role `default`): one vector per text, in order;
   * the call's tokens and cost count on the process and against its budget.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]>;
  /** Sends a progress line to the process's output channel. */
  sendProgress(message: string): Promise<void>;
  /** Sends a message to the user through the process's output channel. */
  sendMessage(message: string): Promise<void>;
}
