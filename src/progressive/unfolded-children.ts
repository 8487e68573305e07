import type { Tool } from "../tool/tool.js";

/**
 * What one unfolding of a facade offered, shared by its guide tool and its
 * `<name>_context` tool: the facade's name, description and notes, and the
 * child tools offered so far (the guide may offer more).
 */
export class UnfoldedChildren {
  private list: Tool[];

  constructor(
    /** The facade's name (also the guide's). */
    readonly facadeName: string,
    /** The facade's description. */
    readonly parentDescription: string,
    /** The facade's usage notes for its children, if any. */
    readonly notes: string | undefined,
    children: readonly Tool[],
  ) {
    this.list = [...children];
  }

  /** The child tools offered so far, in order. */
  get tools(): readonly Tool[] {
    return this.list;
  }

  /** Records the tools of `tools` whose names were not offered yet, and returns them. */
  addNew(tools: readonly Tool[]): Tool[] {
    const names = new Set(this.list.map((tool) => tool.definition.name));
    const fresh: Tool[] = [];
    for (const tool of tools) {
      if (names.has(tool.definition.name)) continue;
      names.add(tool.definition.name);
      fresh.push(tool);
    }
    this.list = [...this.list, ...fresh];
    return fresh;
  }
}
