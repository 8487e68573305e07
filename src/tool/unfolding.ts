import type { Tool } from "./tool.js";
import type { ToolResult } from "./tool-result.js";

const UNFOLDED = Symbol.for("embabel-ts.unfolded");

/**
 * What a facade's call asks the tool loop to do to the tool list. The
 * progressive layer's `UnfoldingTool` attaches it to its result; the loop's
 * `UnfoldingToolInjectionStrategy` reads it. Selection therefore runs once,
 * in the call, and stateful selectors see one invocation.
 */
export interface Unfolding {
  /** Tools to append (selected inner tools, then the `<name>_context` tool). */
  readonly tools: readonly Tool[];
  /** Takes the facade's place, under the facade's name and definition (the guide tool). */
  readonly guide?: Tool;
  /** Remove every other tool from the list. @default false */
  readonly exclusive: boolean;
  /**
   * The result is a `returnDirect` tool's, reached through shortcut dispatch:
   * the loop ends with it as it would had that tool been called directly.
   * @default false
   */
  readonly returnDirect?: boolean;
}

/** A tool with a fixed list of inner tools (facades, playbooks). */
export interface NestedTool extends Tool {
  readonly innerTools: readonly Tool[];
}

/** Attaching and reading {@link Unfolding}s on tool results. */
export const Unfolding = {
  /** Returns `result` carrying `unfolding` (invisible to the LLM and to JSON). */
  attach<R extends ToolResult>(result: R, unfolding: Unfolding): R {
    Object.defineProperty(result, UNFOLDED, { value: unfolding });
    return result;
  },
  /** The unfolding a result carries, if any. */
  of(result: ToolResult): Unfolding | undefined {
    return (result as unknown as Record<symbol, Unfolding | undefined>)[UNFOLDED];
  },
};

/** True for tools that expose `innerTools`. */
export function isNestedTool(tool: Tool): tool is NestedTool {
  return Array.isArray((tool as Partial<NestedTool>).innerTools);
}
