import type { Tool } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolResult } from "../tool/tool-result.js";
import { ChainedToolInjectionStrategy } from "./chained-tool-injection-strategy.js";

/** The tool call a strategy is asked about. */
export interface LastToolCall {
  /** The tool as it was in the list (possibly decorated). */
  readonly tool: Tool;
  readonly toolName: string;
  /** The JSON arguments the tool was called with (the LLM's; `{}` when it sent none). */
  readonly toolInput: string;
  readonly result: ToolResult;
}

/** What a strategy sees after each tool call. */
export interface ToolInjectionContext {
  /** The tools currently offered, in order. */
  readonly tools: readonly Tool[];
  readonly lastToolCall: LastToolCall;
  /** 1-based iteration (LLM round) of the loop. */
  readonly iteration: number;
  /** The context the loop passes to tools (includes the loop id). */
  readonly context: ToolCallContext;
}

/**
 * A change to the tool list. Applied in this order: `remove` by name,
 * `replace` same-named tools in place, `add` appended (names already present
 * are skipped). Existing tools keep their positions.
 */
export interface ToolInjectionResult {
  readonly add?: readonly Tool[];
  readonly remove?: readonly string[];
  readonly replace?: readonly Tool[];
}

/** Builders for {@link ToolInjectionResult}; each returns `undefined` (no change) when given nothing. */
export const ToolInjectionResult = {
  /** Append `tools` (names already offered are skipped). */
  add(...tools: Tool[]): ToolInjectionResult | undefined {
    return tools.length > 0 ? { add: tools } : undefined;
  },
  /** Remove the tools with these names. */
  remove(...names: string[]): ToolInjectionResult | undefined {
    return names.length > 0 ? { remove: names } : undefined;
  },
  /** Put each tool where the same-named tool is. */
  replace(...tools: Tool[]): ToolInjectionResult | undefined {
    return tools.length > 0 ? { replace: tools } : undefined;
  },
  /** True when `result` changes something. */
  hasChanges(result: ToolInjectionResult | undefined): boolean {
    return !!result && (!!result.add?.length || !!result.remove?.length || !!result.replace?.length);
  },
};

/**
 * Decides, after each tool call, which tools to add to and remove from the
 * next LLM round. Returns `undefined` for no change.
 */
export interface ToolInjectionStrategy {
  /** The tools to add, remove or replace after the call `context` describes, or `undefined` for no change. */
  evaluate(context: ToolInjectionContext): ToolInjectionResult | undefined;
}

const NONE: ToolInjectionStrategy = Object.freeze({ evaluate: () => undefined });

/** The built-in strategies. */
export const ToolInjectionStrategy = {
  /** Never changes the tool list. */
  NONE,
  /** Unfolding support ({@link UnfoldingToolInjectionStrategy}) in a chain; what every loop uses unless told otherwise. */
  DEFAULT: ChainedToolInjectionStrategy.withUnfolding() as ToolInjectionStrategy,
  /** True for values with an `evaluate` function. */
  isToolInjectionStrategy(value: unknown): value is ToolInjectionStrategy {
    return (
      typeof value === "object" &&
      value !== null &&
      typeof (value as ToolInjectionStrategy).evaluate === "function"
    );
  },
};
