import type { ToolGroup, ToolGroupMetadata } from "../prompt/tool-group.js";
import type { Tool } from "../tool/tool.js";
import { normalizeToolName } from "../tool/tool-definition.js";
import { SearchableTool, type SearchableToolOptions } from "./searchable-tool.js";

/** The search tool a tool group's tools hide behind: `find_<role>_tools`, describing the group. */
export function groupSearchTool(
  metadata: ToolGroupMetadata,
  tools: readonly Tool[],
  options: SearchableToolOptions = {},
): SearchableTool {
  return new SearchableTool(
    normalizeToolName(`find_${metadata.role}_tools`),
    `Find tools for: ${metadata.description}. Describe what you want to do; the best matching tools become available to call.`,
    tools,
    options,
  );
}

/**
 * A tool group whose tools, when there are more than `above`, are offered
 * behind one search tool (`find_<role>_tools`, see `UnfoldingTool.searchable`);
 * smaller groups pass through unchanged. The search tool is rebuilt only when
 * the group's tool list changes (an MCP server's list changed).
 */
export class SearchableToolGroup implements ToolGroup {
  private view: { readonly tools: readonly Tool[]; readonly offered: readonly Tool[] } | undefined;

  private constructor(
    /** The group whose tools are searched. */
    readonly group: ToolGroup,
    private readonly above: number,
    private readonly options: SearchableToolOptions,
  ) {}

  /** `group`, searchable once it has more than `above` tools (0: always). */
  static above(group: ToolGroup, above: number, options: SearchableToolOptions = {}): SearchableToolGroup {
    return new SearchableToolGroup(group, above, options);
  }

  get metadata(): ToolGroupMetadata {
    return this.group.metadata;
  }

  async tools(options: { readonly signal?: AbortSignal } = {}): Promise<readonly Tool[]> {
    const tools = await this.group.tools(options);
    if (tools.length <= this.above) return tools;
    if (this.view?.tools !== tools) {
      this.view = { tools, offered: [groupSearchTool(this.metadata, tools, this.options)] };
    }
    return this.view.offered;
  }

  toString(): string {
    return `SearchableToolGroup(${String(this.group)}, above=${this.above})`;
  }
}
