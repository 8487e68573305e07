import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import { ConfigurationError } from "../errors/configuration-error.js";
import { distinctByName } from "../tool/distinct-tools.js";
import type { Tool } from "../tool/tool.js";
import type { ToolDefinition } from "../tool/tool-definition.js";
import { providerToolDefinition } from "./provider-tool-definition.js";

/**
 * The tools a loop currently offers, in a stable order, with the name map
 * kept in step and the provider definitions array rebuilt only after a change.
 */
export class ToolSet {
  private list: Tool[];
  private readonly byName = new Map<string, Tool>();
  private definitions: LanguageModelV3FunctionTool[] | undefined;
  /** The definition objects `definitions` was built from, to notice a tool whose definition changed. */
  private sources: ToolDefinition[] = [];
  private names: string[] | undefined;

  private constructor(tools: Tool[]) {
    this.list = tools;
    for (const tool of tools) this.byName.set(tool.definition.name, tool);
  }

  /**
   * The initial set: the same tool listed twice counts once; two different
   * tools with one name are a {@link ConfigurationError}.
   */
  static of(tools: readonly Tool[], decorate?: (tool: Tool) => Tool): ToolSet {
    const distinct = distinctByName(
      tools,
      (name) =>
        new ConfigurationError(
          `Two different tools are named '${name}'. Tool names must be unique in one LLM interaction: rename one (tool.withName("...")) or remove it.`,
        ),
    );
    const kept = distinct.map((tool) => decorateTool(tool, decorate));
    return new ToolSet(kept);
  }

  /** The tools, in order. */
  get tools(): readonly Tool[] {
    return this.list;
  }

  /** The tool called `name`, if offered. */
  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  /** Whether a tool called `name` is offered. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The names, in order (cached until the next change). */
  get toolNames(): readonly string[] {
    if (!this.names) this.names = this.list.map((tool) => tool.definition.name);
    return this.names;
  }

  /**
   * The provider definitions, in order: the array is reused until the list
   * changes or a tool's definition object is replaced (checked by identity).
   */
  get providerDefinitions(): readonly LanguageModelV3FunctionTool[] {
    if (this.definitions && this.unchangedDefinitions()) return this.definitions;
    this.sources = this.list.map((tool) => tool.definition);
    this.definitions = this.list.map(providerToolDefinition);
    return this.definitions;
  }

  private unchangedDefinitions(): boolean {
    const { list, sources } = this;
    for (let index = 0; index < list.length; index += 1) {
      if ((list[index] as Tool).definition !== sources[index]) return false;
    }
    return true;
  }

  /** Removes the tools with these names; returns the removed tools. */
  remove(names: readonly string[]): Tool[] {
    const removed: Tool[] = [];
    for (const name of names) {
      const tool = this.byName.get(name);
      if (!tool) continue;
      this.byName.delete(name);
      removed.push(tool);
    }
    if (removed.length > 0) {
      this.list = this.list.filter((tool) => !removed.includes(tool));
      this.changed();
    }
    return removed;
  }

  /** Puts `tool` where the tool of the same name is (appends it if none); returns the tool it replaced. */
  replace(tool: Tool): Tool | undefined {
    const name = tool.definition.name;
    const previous = this.byName.get(name);
    if (previous === tool) return undefined;
    this.byName.set(name, tool);
    if (previous) this.list = this.list.map((candidate) => (candidate === previous ? tool : candidate));
    else this.list = [...this.list, tool];
    this.changed();
    return previous;
  }

  /** Appends `tool` unless its name is taken; returns whether it was added. */
  add(tool: Tool): boolean {
    const name = tool.definition.name;
    if (this.byName.has(name)) return false;
    this.byName.set(name, tool);
    this.list = [...this.list, tool];
    this.changed();
    return true;
  }

  private changed(): void {
    this.definitions = undefined;
    this.names = undefined;
  }
}

/**
 * `tool` passed through `decorate`, which must keep the tool's name: the loop
 * finds, removes and replaces tools by name (an unfolded facade's guide takes
 * the facade's name), so a renaming decorator is a {@link ConfigurationError}.
 */
export function decorateTool(tool: Tool, decorate: ((tool: Tool) => Tool) | undefined): Tool {
  if (!decorate) return tool;
  const decorated = decorate(tool);
  if (decorated.definition.name !== tool.definition.name) {
    throw new ConfigurationError(
      `The toolDecorator renamed tool '${tool.definition.name}' to '${decorated.definition.name}'. A tool decorator must keep the tool's name: rename tools before passing them (tool.withName("...")).`,
    );
  }
  return decorated;
}
