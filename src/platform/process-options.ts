import { checkMaxRetries } from "../loop/model-call-retry.js";
import { ToolCallContext, type ToolCallContextInit } from "../tool/tool-call-context.js";
import type { Blackboard } from "./blackboard.js";
import { Budget } from "./budget.js";
import { OutputChannel } from "./output-channel.js";
import type { ProcessListener } from "./process-event.js";
import { Verbosity } from "./verbosity.js";

/** The fields of {@link ProcessOptions}, all optional. */
export interface ProcessOptionsInit {
  /** Identifies the conversation or request the process serves. @default undefined */
  readonly contextId?: string;
  /** Out-of-band values passed to every tool call in the process. @default ToolCallContext.EMPTY */
  readonly toolCallContext?: ToolCallContextInit;
  /** What the process reports. @default Verbosity.DEFAULT */
  readonly verbosity?: Verbosity;
  /** Cost, token and action limits. @default Budget.DEFAULT */
  readonly budget?: Partial<Budget>;
  /** Receive every process event. @default [] */
  readonly listeners?: readonly ProcessListener[];
  /** Receives progress, messages and log lines. @default OutputChannel.DEV_NULL */
  readonly outputChannel?: OutputChannel;
  /** The blackboard to start from (a `spawn()`ed one for child processes). @default a new, empty blackboard */
  readonly blackboard?: Blackboard;
  /** Retries of a failed model call for the process's runners that set none (`PromptRunner.withMaxRetries` wins). @default undefined (the platform's `maxRetries`, else 2) */
  readonly maxRetries?: number;
}

/**
 * How to run one agent process (immutable; every `with*` returns a copy):
 * context id, tool-call context, verbosity, budget, listeners, output channel
 * and an optional starting blackboard.
 *
 * @example
 * const options = ProcessOptions.DEFAULT
 *   .withToolCallContext({ tenantId: "acme" })
 *   .withVerbosity(new Verbosity().withShowPrompts(true))
 *   .withBudget({ actions: 10 });
 */
export class ProcessOptions {
  /** Every option at its default. */
  static readonly DEFAULT: ProcessOptions = new ProcessOptions();

  /** Identifies the conversation or request the process serves. @default undefined */
  readonly contextId: string | undefined;
  /** Out-of-band values passed to every tool call in the process. @default ToolCallContext.EMPTY */
  readonly toolCallContext: ToolCallContext;
  /** What the process reports. @default Verbosity.DEFAULT */
  readonly verbosity: Verbosity;
  /** Cost, token and action limits. @default Budget.DEFAULT */
  readonly budget: Budget;
  /** Receive every process event. @default [] */
  readonly listeners: readonly ProcessListener[];
  /** Receives progress, messages and log lines. @default OutputChannel.DEV_NULL */
  readonly outputChannel: OutputChannel;
  /** The blackboard to start from. @default undefined (a new, empty one) */
  readonly blackboard: Blackboard | undefined;
  /** Retries of a failed model call for the process's runners that set none. @default undefined (the platform's `maxRetries`, else 2) */
  readonly maxRetries: number | undefined;

  constructor(init: ProcessOptionsInit = {}) {
    this.contextId = init.contextId;
    this.toolCallContext = ToolCallContext.of(init.toolCallContext);
    this.verbosity = init.verbosity ?? Verbosity.DEFAULT;
    this.budget = Budget.of(init.budget);
    this.listeners = Object.freeze([...(init.listeners ?? [])]);
    this.outputChannel = init.outputChannel ?? OutputChannel.DEV_NULL;
    this.blackboard = init.blackboard;
    if (init.maxRetries !== undefined) checkMaxRetries("ProcessOptions'", init.maxRetries);
    this.maxRetries = init.maxRetries;
    Object.freeze(this);
  }

  private with(changes: ProcessOptionsInit): ProcessOptions {
    return new ProcessOptions({ ...this.toInit(), ...changes });
  }

  /** The fields as a {@link ProcessOptionsInit}. */
  toInit(): ProcessOptionsInit {
    return {
      contextId: this.contextId,
      toolCallContext: this.toolCallContext,
      verbosity: this.verbosity,
      budget: this.budget,
      listeners: this.listeners,
      outputChannel: this.outputChannel,
      blackboard: this.blackboard,
      maxRetries: this.maxRetries,
    };
  }

  /** A copy with this context id. */
  withContextId(contextId: string | undefined): ProcessOptions {
    return this.with({ contextId });
  }

  /** A copy whose tool-call context is `context` (replacing the current one). */
  withToolCallContext(context: ToolCallContextInit): ProcessOptions {
    return this.with({ toolCallContext: ToolCallContext.of(context) });
  }

  /** A copy with this verbosity. */
  withVerbosity(verbosity: Verbosity): ProcessOptions {
    return this.with({ verbosity });
  }

  /** A copy whose budget has `changes` applied (unchanged limits are kept). */
  withBudget(changes: Partial<Budget>): ProcessOptions {
    return this.with({ budget: Budget.of(changes, this.budget) });
  }

  /** A copy with `listener` added after the current listeners. */
  withListener(listener: ProcessListener): ProcessOptions {
    return this.with({ listeners: [...this.listeners, listener] });
  }

  /** A copy with exactly these listeners. */
  withListeners(listeners: readonly ProcessListener[]): ProcessOptions {
    return this.with({ listeners });
  }

  /** A copy with this output channel. */
  withOutputChannel(outputChannel: OutputChannel): ProcessOptions {
    return this.with({ outputChannel });
  }

  /** A copy whose runners retry a failed model call up to `maxRetries` times (unless a runner sets its own). */
  withMaxRetries(maxRetries: number | undefined): ProcessOptions {
    return this.with({ maxRetries });
  }

  /** A copy that starts the process on `blackboard`. */
  withBlackboard(blackboard: Blackboard | undefined): ProcessOptions {
    return this.with({ blackboard });
  }
}
