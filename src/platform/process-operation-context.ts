// Builds the OperationContext of one action (or one `runInProcess` function).
// The interface is in operation-context.ts, apart from this builder: the agent
// model below the runner names the interface, and the builder needs the
// process's embedding code, which would pull the process into that circle.
import { ConfigurationError } from "../errors/configuration-error.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import type { AgentProcess } from "./agent-process.js";
import type { Blackboard } from "./blackboard.js";
import type { EmbedOptions } from "./embed-options.js";
import type { OperationContext } from "./operation-context.js";
import { embedInProcess } from "./process-embedding.js";
import type { ProcessOptions } from "./process-options.js";

/** Builds the {@link OperationContext} of one operation. */
export function operationContext(
  process: AgentProcess,
  action: string | undefined,
  ai: (() => PromptRunner) | undefined,
): OperationContext {
  return new ProcessOperationContext(process, action, ai);
}

const RUNNER = Symbol("embabel-ts.operation-context.runner");

/**
 * The frozen {@link OperationContext}: one small object per action. Its
 * functions are made when read (so `const { ai } = context` works as well
 * as `context.ai()`), not when the context is built: contexts live as long
 * as their action, functions read for one call die young.
 */
class ProcessOperationContext implements OperationContext {
  readonly blackboard: Blackboard;
  readonly processOptions: ProcessOptions;
  readonly signal: AbortSignal;
  /** Symbol-keyed (not `#private`), so a Proxy or `Object.create` over the context still reads it. */
  readonly [RUNNER]: (() => PromptRunner) | undefined;

  constructor(
    readonly process: AgentProcess,
    readonly action: string | undefined,
    ai: (() => PromptRunner) | undefined,
  ) {
    this.blackboard = process.blackboard;
    this.processOptions = process.processOptions;
    this.signal = process.signal;
    this[RUNNER] = ai;
    Object.freeze(this);
  }

  get ai(): () => PromptRunner {
    const ai = this[RUNNER];
    return () => {
      if (!ai) {
        throw new ConfigurationError(
          "OperationContext.ai() needs a platform: run the agent with platform.runAgent or platform.runInProcess.",
        );
      }
      return ai();
    };
  }

  get embed(): (texts: readonly string[], options?: EmbedOptions) => Promise<number[][]> {
    return (texts, options) => embedInProcess(this.process, texts, options);
  }

  get sendProgress(): (message: string) => Promise<void> {
    return async (message) => {
      await this.processOptions.outputChannel.send({ type: "progress", processId: this.process.id, message });
    };
  }

  get sendMessage(): (message: string) => Promise<void> {
    return async (message) => {
      if (message.length === 0) throw new ConfigurationError("A message to the user cannot be empty.");
      await this.processOptions.outputChannel.send({
        type: "message",
        processId: this.process.id,
        message: Object.freeze({ role: "assistant", content: message }),
      });
    };
  }
}
