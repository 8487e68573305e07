import { Unfolding } from "../tool/unfolding.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "./tool-injection-strategy.js";

/**
 * Unfolds facades: when the called tool is a facade, or wraps one (found by
 * walking its `delegate` chain), and that call unfolded it into tools, the called facade is replaced in place by the unfolding's guide
 * (under the facade's name; removed when there is no guide) and the selected
 * tools are appended. An exclusive unfolding also removes every other tool.
 * No unfolding, or one without tools, changes nothing.
 */
export class UnfoldingToolInjectionStrategy implements ToolInjectionStrategy {
  /** The shared instance (the strategy holds no state). */
  static readonly INSTANCE = new UnfoldingToolInjectionStrategy();

  evaluate(context: ToolInjectionContext): ToolInjectionResult | undefined {
    const { tool, toolName: facadeName, toolInput, result } = context.lastToolCall;
    const call = { input: toolInput, context: context.context, definition: tool.definition };
    const unfolding = Unfolding.ofCall(tool, call, result);
    if (!unfolding || unfolding.tools.length === 0) return undefined;
    const guide = unfolding.guide
      ? unfolding.guide.definition.name === facadeName
        ? unfolding.guide
        : unfolding.guide.withName(facadeName)
      : undefined;
    const remove: string[] = [];
    if (unfolding.exclusive) {
      for (const tool of context.tools) {
        if (tool.definition.name !== facadeName || !guide) remove.push(tool.definition.name);
      }
    } else if (!guide) {
      remove.push(facadeName);
    }
    return {
      ...(remove.length > 0 ? { remove } : {}),
      ...(guide ? { replace: [guide] } : {}),
      add: unfolding.tools,
    };
  }
}
