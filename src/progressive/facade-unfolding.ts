// The change to the tool list a facade's call makes (UnfoldingTool's unfolding).
import type { Tool } from "../tool/tool.js";
import type { ToolDefinition } from "../tool/tool-definition.js";
import type { Unfolding } from "../tool/unfolding.js";
import { ContextTool } from "./context-tool.js";
import { GuideTool, type Reselect } from "./guide-tool.js";
import { UnfoldedChildren } from "./unfolded-children.js";

/** What of a facade its unfolding shows. */
export interface UnfoldingFacade {
  /** The facade's description. */
  readonly description: string;
  /** Guidance on the child tools, shown once after unfolding. */
  readonly notes: string | undefined;
  /** Whether unfolding removes every other tool. */
  readonly exclusive: boolean;
  /** How the guide selects again, for a facade that selects its tools. */
  readonly reselect: Reselect | undefined;
}

/**
 * The change to the tool list: the guide in the facade's place (under the
 * definition the facade was offered with), the selected tools and the
 * context tool (named after that definition) appended. When the call went
 * through a child facade (shortcut), that child appears as its own guide
 * and its tools follow.
 */
export function facadeUnfolding(
  facade: UnfoldingFacade,
  definition: ToolDefinition,
  selected: readonly Tool[],
  via?: Tool,
  nested?: Unfolding,
): Unfolding {
  const children = new UnfoldedChildren(definition.name, facade.description, facade.notes, selected);
  const guide = new GuideTool(definition, children, facade.reselect);
  const tools = [...selected, new ContextTool(children)];
  const dispatched = via ? [via.definition.name, ...(nested?.dispatched ?? [])] : undefined;
  if (!nested)
    return dispatched
      ? { tools, guide, exclusive: facade.exclusive, dispatched }
      : { tools, guide, exclusive: facade.exclusive };
  const withChildGuide = tools.map((tool) => (tool === via && nested.guide ? nested.guide : tool));
  return {
    tools: [...withChildGuide, ...nested.tools],
    guide,
    exclusive: facade.exclusive || nested.exclusive,
    ...(dispatched ? { dispatched } : {}),
  };
}
