import type { Tool } from "../tool/tool.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "./tool-injection-strategy.js";
import { UnfoldingToolInjectionStrategy } from "./unfolding-tool-injection-strategy.js";

/** Evaluates several strategies in order and concatenates their changes. */
export class ChainedToolInjectionStrategy implements ToolInjectionStrategy {
  /** The strategies, in evaluation order. */
  readonly strategies: readonly ToolInjectionStrategy[];

  constructor(strategies: readonly ToolInjectionStrategy[]) {
    this.strategies = [...strategies];
  }

  /** Unfolding support first, then `others` (the specification's `withUnfolding`). */
  static withUnfolding(...others: ToolInjectionStrategy[]): ChainedToolInjectionStrategy {
    return new ChainedToolInjectionStrategy([UnfoldingToolInjectionStrategy.INSTANCE, ...others]);
  }

  /** The tools to add, remove or replace after the call `context` describes, or `undefined` for no change. */
  evaluate(context: ToolInjectionContext): ToolInjectionResult | undefined {
    const add: Tool[] = [];
    const remove: string[] = [];
    const replace: Tool[] = [];
    for (const strategy of this.strategies) {
      const result = strategy.evaluate(context);
      if (!result) continue;
      if (result.add) add.push(...result.add);
      if (result.remove) remove.push(...result.remove);
      if (result.replace) replace.push(...result.replace);
    }
    if (add.length === 0 && remove.length === 0 && replace.length === 0) return undefined;
    return {
      ...(add.length > 0 ? { add } : {}),
      ...(remove.length > 0 ? { remove } : {}),
      ...(replace.length > 0 ? { replace } : {}),
    };
  }
}
