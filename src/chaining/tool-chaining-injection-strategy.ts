import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "../loop/tool-injection-strategy.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import type { DomainToolTracker } from "./domain-tool-tracker.js";

/**
 * Offers every artifact a tool returns to the tracker, so placeholders bind;
 * in auto-discovery mode it appends the discovered object's tools for the
 * next LLM call and removes those of the object discovered before. A
 * discovered tool whose name is already offered is left out.
 */
export class ToolChainingInjectionStrategy implements ToolInjectionStrategy {
  private offered: readonly string[] = [];

  constructor(private readonly tracker: DomainToolTracker) {}

  evaluate(context: ToolInjectionContext): ToolInjectionResult | undefined {
    const { result } = context.lastToolCall;
    if (result.kind !== "artifact") return undefined;
    const tools = this.tracker.offer(result.artifact, AmbientProcess.current());
    if (!tools) return undefined;
    const previous = new Set(this.offered);
    const taken = new Set(
      context.tools.map((tool) => tool.definition.name).filter((name) => !previous.has(name)),
    );
    const add = tools.filter((tool) => !taken.has(tool.definition.name));
    const remove = this.offered;
    this.offered = add.map((tool) => tool.definition.name);
    if (add.length === 0 && remove.length === 0) return undefined;
    return { ...(remove.length > 0 ? { remove: [...remove] } : {}), ...(add.length > 0 ? { add } : {}) };
  }
}
