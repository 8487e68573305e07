import { DelegatingTool } from "./abstract-tool.js";
import { LoopMemo } from "./loop-memo.js";
import { ToolCallContext } from "./tool-call-context.js";
import type { Tool, ToolCallOptions } from "./tool-interface.js";
import { ToolResult } from "./tool-result.js";

/** Options of {@link OneShotPerLoopTool}. */
export interface OneShotPerLoopOptions {
  /** The memo of loops already served. @default a new `LoopMemo()` */
  readonly memo?: LoopMemo;
}

/**
 * Lets a tool run at most once per tool loop (per `ToolCallContext.loopId()`):
 * later calls in the same loop get `ALREADY LOADED. …` plus `advice` instead
 * of running it again. Without a loop id every call runs. Definition and
 * metadata (`returnDirect`) are the delegate's. A first call that fails
 * (error result or thrown error) does not count, so the model may retry it.
 * A loop stopped for a person keeps whether it ran, so a resumed loop (on
 * another worker too) does not run it again.
 */
export class OneShotPerLoopTool extends DelegatingTool {
  private readonly memo: LoopMemo;

  constructor(
    delegate: Tool,
    /** What the LLM should do instead of calling again. */
    readonly advice: string,
    options: OneShotPerLoopOptions = {},
  ) {
    super(delegate);
    this.memo = options.memo ?? new LoopMemo();
  }

  /** Names this tool's use among a stopped loop's kept states (the loop layer's `ResumableState`). */
  get resumeKey(): string {
    return `one-shot:${this.definition.name}`;
  }

  /** `true` when it ran in the context's loop: a loop stopped for a person keeps that. */
  captureState(context: ToolCallContext): true | undefined {
    return this.memo.has(context) ? true : undefined;
  }

  /** The resumed loop's tool ran before the wait: later calls in it answer `ALREADY LOADED`. */
  restoreState(state: unknown, context: ToolCallContext): undefined {
    if (state === true) this.memo.firstTimeIn(context);
    return undefined;
  }

  override async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    if (!this.memo.firstTimeIn(context)) {
      return ToolResult.text(
        `ALREADY LOADED. The body of '${this.definition.name}' was returned earlier in this turn — read it from your conversation history above. Do not call this tool again. ${this.advice}`,
      );
    }
    try {
      // Not gated again: a decorator's call is the gated call itself (same definition, metadata and input, admitted by whichever route called it).
      const result = await this.delegate.call(input, context, options);
      if (result.kind === "error") this.memo.forget(context);
      return result;
    } catch (error) {
      this.memo.forget(context);
      throw error;
    }
  }
}
