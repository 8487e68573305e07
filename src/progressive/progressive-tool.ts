import type { AmbientProcess } from "../tool/ambient-process.js";
import type { Tool } from "../tool/tool.js";
import { isNestedTool, type NestedTool } from "../tool/unfolding.js";

/**
 * A tool that can reveal inner tools depending on context (the
 * specification's `ProgressiveTool`). `innerTools` is the fixed list readable
 * without a process (tree printers, gateways); `innerToolsFor(process)` is the
 * list for one agent process, which may differ.
 */
export interface ProgressiveTool extends NestedTool {
  /** The inner tools for `process` (the current agent process when omitted). */
  innerToolsFor(process?: AmbientProcess): readonly Tool[];
}

/** Guards for {@link ProgressiveTool}. */
export const ProgressiveTool = {
  /** True for tools exposing `innerTools` and `innerToolsFor`. */
  isProgressiveTool(tool: Tool): tool is ProgressiveTool {
    return isNestedTool(tool) && typeof (tool as Partial<ProgressiveTool>).innerToolsFor === "function";
  },
};
