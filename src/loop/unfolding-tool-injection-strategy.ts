import { Unfolding } from "../tool/unfolding.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "./tool-injection-strategy.js";

/**
 * Unfolds facades: when the last call's result carries an {@link Unfolding}
 * with tools, the called facade is replaced in place by the unfolding's guide
 * (under the facade's name; removed when there is no guide) and the selected
 * tools are appended. An exclusive unfolding also removes every other tool.
 * No unfolding, or one without tools, changes nothing.
 */
export class UnfoldingToolInjectionStrategy implements ToolInjectionStrategy {
  /** The shared instance (the strategy holds no state). */
  static readonly INSTANCE = new UnfoldingToolInjectionStrategy();

  evaluate(context: ToolInjectionContext): ToolInjectionResult | undefined {
    const unfolding = Unfolding.of(context.lastToolCall.result);
    if (!unfolding || unfolding.tools.length === 0) return undefined;
    const facadeName = context.lastToolCall.toolName;
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
