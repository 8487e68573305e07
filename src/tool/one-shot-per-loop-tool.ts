import { DelegatingTool } from "./abstract-tool.js";
import { LoopMemo } from "./loop-memo.js";
import type { Tool, ToolCallOptions } from "./tool.js";
import { ToolCallContext } from "./tool-call-context.js";
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
      const result = await this.delegate.call(input, context, options);
      if (result.kind === "error") this.memo.forget(context);
      return result;
    } catch (error) {
      this.memo.forget(context);
      throw error;
    }
  }
}
