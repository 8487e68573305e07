import { ConfigurationError } from "../errors/configuration-error.js";
import { DelegatingTool } from "../tool/abstract-tool.js";
import type { Tool } from "../tool/tool.js";
import { Unfolding } from "../tool/unfolding.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "./tool-injection-strategy.js";

/**
 * Unfolds facades: when the called tool is a facade, or wraps one (found by
 * walking its `delegate` chain), and that call unfolded it into tools, the
 * called tool is replaced in place by the unfolding's guide (under the called
 * name; removed when there is no guide) and the selected tools are appended. An exclusive unfolding also removes every other tool.
 * No unfolding, or one without tools, changes nothing. A child whose name is
 * taken by a different tool still offered is a {@link ConfigurationError}
 * naming both (the model could not tell them apart).
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
    checkNoClash(facadeName, unfolding.tools, context.tools, remove);
    return {
      ...(remove.length > 0 ? { remove } : {}),
      ...(guide ? { replace: [guide] } : {}),
      add: unfolding.tools,
    };
  }
}

/** True when `a` and `b` are one tool, possibly decorated. */
function sameTool(a: Tool, b: Tool): boolean {
  return (
    a === b ||
    DelegatingTool.unwrap(a, (candidate): candidate is Tool => candidate === b) !== undefined ||
    DelegatingTool.unwrap(b, (candidate): candidate is Tool => candidate === a) !== undefined
  );
}

function checkNoClash(
  facadeName: string,
  children: readonly Tool[],
  offered: readonly Tool[],
  removed: readonly string[],
): void {
  const byName = new Map(offered.map((tool) => [tool.definition.name, tool]));
  for (const child of children) {
    const name = child.definition.name;
    const sibling = byName.get(name);
    if (!sibling || removed.includes(name) || sameTool(sibling, child)) continue;
    if (Unfolding.isGenerated(sibling) || Unfolding.isGenerated(child)) continue;
    throw new ConfigurationError(
      `Unfolding '${facadeName}' would offer its child tool '${name}' ("${child.definition.description}"), but a different tool named '${name}' ("${sibling.definition.description}") is already offered. Tool names must be unique in one LLM interaction: rename one (tool.withName("...")).`,
    );
  }
}
