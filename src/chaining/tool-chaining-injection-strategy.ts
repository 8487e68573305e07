import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "../loop/tool-injection-strategy.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import type { Tool } from "../tool/tool.js";
import type { DomainToolTracker } from "./domain-tool-tracker.js";

/**
 * Offers every artifact a tool returns to the tracker, so placeholders bind;
 * in auto-discovery mode it appends the discovered object's tools for the
 * next LLM call and removes those of the object discovered before. A
 * discovered tool whose name is already offered is left out.
 */
export class ToolChainingInjectionStrategy implements ToolInjectionStrategy {
  private offeredTools: readonly Tool[] = [];

  constructor(private readonly tracker: DomainToolTracker) {}

  /** The discovered tools this strategy has added and not removed since. */
  get offered(): readonly Tool[] {
    return this.offeredTools;
  }

  /** The tools to add, remove or replace after the call `context` describes, or `undefined` for no change. */
  evaluate(context: ToolInjectionContext): ToolInjectionResult | undefined {
    const { result } = context.lastToolCall;
    if (result.kind !== "artifact") return undefined;
    const tools = this.tracker.offer(result.artifact, AmbientProcess.current());
    if (!tools) return undefined;
    const remove = this.offeredTools.map((tool) => tool.definition.name);
    const previous = new Set(remove);
    const taken = new Set(
      context.tools.map((tool) => tool.definition.name).filter((name) => !previous.has(name)),
    );
    const add = tools.filter((tool) => !taken.has(tool.definition.name));
    this.offeredTools = add;
    if (add.length === 0 && remove.length === 0) return undefined;
    return { ...(remove.length > 0 ? { remove } : {}), ...(add.length > 0 ? { add } : {}) };
  }
}
