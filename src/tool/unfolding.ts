import { DelegatingTool } from "./abstract-tool.js";
import type { ToolCallContext } from "./tool-call-context.js";
import type { ToolDefinition } from "./tool-definition.js";
import type { Tool } from "./tool-interface.js";
import type { ToolResult } from "./tool-result.js";

const UNFOLDED = Symbol.for("embabel-ts.unfolded");
const GENERATED = Symbol.for("embabel-ts.generated-by-unfolding");

/**
 * What a facade's call asks the tool loop to do to the tool list. The
 * progressive layer's `UnfoldingTool` records it for the call; the loop's
 * `UnfoldingToolInjectionStrategy` finds the facade behind the called tool
 * (walking the `delegate` chain) and asks it. Selection therefore runs once,
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
  /**
   * The names of the tools a shortcut call ran, outermost first (a facade's
   * child, then that child's child when it is a facade too), so that
   * observers of the loop (playbooks) see calls made through the facade.
   * @default undefined (no shortcut)
   */
  readonly dispatched?: readonly string[];
}

/** The call an {@link UnfoldingSource} is asked about. */
export interface UnfoldingCall {
  /** The JSON arguments the tool was called with. */
  readonly input: string;
  /** The context of the call (its loop id tells loops apart). */
  readonly context: ToolCallContext;
  /** The definition the called tool was offered under (a wrapper may have renamed the facade). */
  readonly definition: ToolDefinition;
}

/**
 * A tool whose calls can unfold it (facades and their guides). It remembers
 * what its latest calls in each loop unfolded, so the loop finds the change
 * through any wrapper, whatever result the wrapper returns.
 */
export interface UnfoldingSource extends Tool {
  /** What the latest call with this input in this loop unfolded (the latest call in the loop when no input matches); `undefined` for nothing. */
  unfoldingFor(call: UnfoldingCall): Unfolding | undefined;
  /**
   * The unfolding a stopped loop had applied, rebuilt for its resumption from
   * the names it offered (the facade offered under `definition`);
   * `undefined` when this facade had not unfolded there.
   */
  restoredUnfolding?(definition: ToolDefinition, offered: ReadonlySet<string>): Unfolding | undefined;
}

/** A tool with a fixed list of inner tools (facades, playbooks). */
export interface NestedTool extends Tool {
  readonly innerTools: readonly Tool[];
}

function isUnfoldingSource(tool: Tool): tool is UnfoldingSource {
  return typeof (tool as Partial<UnfoldingSource>).unfoldingFor === "function";
}

/** Finding the {@link Unfolding} of a call. */
export const Unfolding = {
  /**
   * What calling `tool` unfolded: asks the first {@link UnfoldingSource} in
   * its `delegate` chain (starting with `tool`), then falls back to an
   * unfolding `result` carries itself ({@link Unfolding.attach}).
   */
  ofCall(tool: Tool, call: UnfoldingCall, result?: ToolResult): Unfolding | undefined {
    const source = DelegatingTool.unwrap(tool, isUnfoldingSource);
    return source?.unfoldingFor(call) ?? (result ? Unfolding.of(result) : undefined);
  },
  /** True for tools that can unfold ({@link UnfoldingSource}). */
  isSource: isUnfoldingSource,
  /** Marks `tool` as made by an unfolding (guide and context tools), so a later unfolding may supersede it under its name. */
  markGenerated<T extends Tool>(tool: T): T {
    Object.defineProperty(tool, GENERATED, { value: true });
    return tool;
  },
  /** True when `tool`, or a tool it wraps, was made by an unfolding. */
  isGenerated(tool: Tool): boolean {
    return (
      DelegatingTool.unwrap(tool, (candidate): candidate is Tool => GENERATED in candidate) !== undefined
    );
  },
  /** Returns `result` carrying `unfolding` (invisible to the LLM and to JSON); for tools that are not an {@link UnfoldingSource}. */
  attach<R extends ToolResult>(result: R, unfolding: Unfolding): R {
    Object.defineProperty(result, UNFOLDED, { value: unfolding });
    return result;
  },
  /** The unfolding a result carries itself, if any. */
  of(result: ToolResult): Unfolding | undefined {
    return (result as unknown as Record<symbol, Unfolding | undefined>)[UNFOLDED];
  },
};

/** True for tools that expose `innerTools`. */
export function isNestedTool(tool: Tool): tool is NestedTool {
  return Array.isArray((tool as Partial<NestedTool>).innerTools);
}
