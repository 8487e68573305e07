import { ConfigurationError } from "../errors/configuration-error.js";
import type { Tool } from "../tool/tool.js";
import { isSameTool, renameOnClash } from "../tool/tool-name-clashes.js";
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
 * naming both (the model could not tell them apart), unless one of the two
 * gives way (an MCP tool): that one is offered under its other name.
 */
export class UnfoldingToolInjectionStrategy implements ToolInjectionStrategy {
  /** The shared instance (the strategy holds no state). */
  static readonly INSTANCE = new UnfoldingToolInjectionStrategy();

  /** The tools to add, remove or replace after the call `context` describes, or `undefined` for no change. */
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
    const add = withoutClashes(facadeName, unfolding.tools, context.tools, remove);
    return {
      ...(remove.length > 0 ? { remove } : {}),
      ...(guide ? { replace: [guide] } : {}),
      add,
    };
  }
}

/**
 * The tools to append: `children`, each clash with a tool still offered
 * resolved by renaming whichever of the two gives way (an offered tool that
 * gives way is removed and appended again under its other name); a clash
 * where neither does is a {@link ConfigurationError}. Adds to `removed`.
 */
function withoutClashes(
  facadeName: string,
  children: readonly Tool[],
  offered: readonly Tool[],
  removed: string[],
): readonly Tool[] {
  const byName = new Map(offered.map((tool) => [tool.definition.name, tool]));
  const childNames = new Set(children.map((child) => child.definition.name));
  const added = new Set<string>();
  const taken = (name: string): boolean =>
    (byName.has(name) && !removed.includes(name)) || childNames.has(name) || added.has(name);
  let result: Tool[] | undefined;
  const moved: Tool[] = [];
  children.forEach((child, index) => {
    const name = child.definition.name;
    const sibling = byName.get(name);
    if (!sibling || removed.includes(name) || isSameTool(sibling, child)) return;
    if (Unfolding.isGenerated(sibling) || Unfolding.isGenerated(child)) return;
    const renamedChild = renameOnClash(child, taken);
    result ??= [...children];
    if (renamedChild !== undefined) {
      added.add(renamedChild.definition.name);
      result[index] = renamedChild;
      return;
    }
    // The child keeps its name; an offered tool that gives way moves to its other name.
    const renamedSibling = renameOnClash(sibling, taken);
    if (renamedSibling === undefined) {
      throw new ConfigurationError(
        `Unfolding '${facadeName}' would offer its child tool '${name}' ("${child.definition.description}"), but a different tool named '${name}' ("${sibling.definition.description}") is already offered. Tool names must be unique in one LLM interaction: rename one (tool.withName("...")).`,
      );
    }
    added.add(renamedSibling.definition.name);
    removed.push(name);
    moved.push(renamedSibling);
  });
  return result === undefined && moved.length === 0 ? children : [...(result ?? children), ...moved];
}
