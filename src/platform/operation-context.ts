import { ConfigurationError } from "../errors/configuration-error.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import type { AgentProcess } from "./agent-process.js";
import type { Blackboard } from "./blackboard.js";
import { type EmbedOptions, embedInProcess } from "./process-embedding.js";
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

/** Builds the {@link OperationContext} of one operation. */
export function operationContext(
  process: AgentProcess,
  action: string | undefined,
  ai: (() => PromptRunner) | undefined,
): OperationContext {
  const channel = process.processOptions.outputChannel;
  return Object.freeze({
    process,
    blackboard: process.blackboard,
    processOptions: process.processOptions,
    action,
    signal: process.signal,
    ai(): PromptRunner {
      if (!ai) {
        throw new ConfigurationError(
          "OperationContext.ai() needs a platform: run the agent with platform.runAgent or platform.runInProcess.",
        );
      }
      return ai();
    },
    embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]> {
      return embedInProcess(process, texts, options);
    },
    async sendProgress(message: string): Promise<void> {
      await channel.send({ type: "progress", processId: process.id, message });
    },
    async sendMessage(message: string): Promise<void> {
      if (message.length === 0) throw new ConfigurationError("A message to the user cannot be empty.");
      await channel.send({
        type: "message",
        processId: process.id,
        message: Object.freeze({ role: "assistant", content: message }),
      });
    },
  });
}
