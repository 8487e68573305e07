import type { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ToolObject } from "../prompt/tool-object.js";
import { AbstractTool, appendNote, DelegatingTool } from "../tool/abstract-tool.js";
import type { AmbientProcess } from "../tool/ambient-process.js";
import { InputSchema } from "../tool/input-schema.js";
import { Tool, type ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { Unfolding, type UnfoldingCall, type UnfoldingSource } from "../tool/unfolding.js";
import { contextToolName } from "./context-tool.js";
import { facadeUnfolding } from "./facade-unfolding.js";
import type { Reselect } from "./guide-tool.js";
import { type FacadeFactories, facadeFromInstance, safelyFacadeFromInstance } from "./instance-facade.js";
import type { ProgressiveTool } from "./progressive-tool.js";
import { SearchableTool, type SearchableToolOptions } from "./searchable-tool.js";
import { findShortcut, runShortcut } from "./shortcut-dispatch.js";
import {
  categoryMap,
  categorySchema,
  categorySelector,
  distinctTools,
  type ToolSelector,
  type ToolsByCategory,
} from "./tool-selection.js";
import { nothingSelectedMessage, unfoldedMessage, usableNotes } from "./unfolding-messages.js";
import { UnfoldingRecords } from "./unfolding-records.js";
import { unfoldingToolsOptionsOf } from "./unfolding-tools-options.js";
import { checkUniqueToolNames } from "./unique-tool-names.js";

/** Options shared by every {@link UnfoldingTool} factory. */
export interface UnfoldingToolOptions {
  /** When and how to use the child tools; shown once, after the unfolded message and in the context tool. @default none */
  readonly childToolUsageNotes?: string;
  /** Unfolding removes every other tool, so the model sees only this facade's children. @default false */
  readonly exclusive?: boolean;
  /**
   * @deprecated Ignored: after unfolding, the facade is always replaced by its guide tool.
   * @default true
   */
  readonly removeOnInvoke?: boolean;
}

/** Options of {@link UnfoldingTool.byCategory}. */
export interface CategoryUnfoldingToolOptions extends UnfoldingToolOptions {
  /** The name of the category parameter. @default "category" */
  readonly categoryParameter?: string;
}

interface UnfoldingToolInit {
  readonly definition: ToolDefinition;
  readonly innerTools: readonly Tool[];
  readonly selector: ToolSelector | undefined;
  readonly notes: string | undefined;
  readonly exclusive: boolean;
  readonly removeOnInvoke: boolean;
}

// Stryker disable next-line StringLiteral: static (run once per test worker, so Stryker can't attribute it); killed by "is true for a facade of another copy of this package", checked by hand
const BRAND = Symbol.for("embabel-ts.unfolding-tool");
const NO_OPTIONS: ToolCallOptions = Object.freeze({});

function initOf(
  name: string,
  description: string,
  inputSchema: InputSchema,
  innerTools: readonly Tool[],
  selector: ToolSelector | undefined,
  options: UnfoldingToolOptions,
): UnfoldingToolInit {
  return {
    definition: toolDefinition(name, description, inputSchema),
    innerTools: distinctTools(innerTools, name),
    selector,
    notes: usableNotes(options.childToolUsageNotes),
    exclusive: options.exclusive ?? false,
    removeOnInvoke: options.removeOnInvoke ?? true,
  };
}

/** The unfolding tool behind a (possibly decorated) tool, if any. */
function facadeBehind(tool: Tool): UnfoldingTool | undefined {
  return DelegatingTool.unwrap(tool, UnfoldingTool.isUnfoldingTool);
}

/** The tools an object contributes to `withToolObject`: a tool itself, a `ToolObject`'s tools, or `Tool.fromInstance`. */
function toolsOfObject(object: object): readonly Tool[] {
  if (Tool.isTool(object)) return [object];
  if (object instanceof ToolObject) return object.tools();
  return Tool.fromInstance(object);
}

/**
 * A facade the LLM sees as one tool; calling it unfolds it into its inner
 * tools (the specification's `UnfoldingTool`). The call answers with the
 * unfolded message and records an {@link Unfolding} for the call, which the
 * loop finds behind any wrapper (`unfoldingFor`): the loop then puts a
 * guide tool (same definition, lists the children) in the facade's place and
 * appends the selected inner tools and a `<name>_context` tool. Selection runs
 * exactly once per call. Input naming an inner tool (`{"create_task": {...}}`)
 * calls that tool directly, with the context and signal, and still unfolds.
 */
export class UnfoldingTool extends AbstractTool implements ProgressiveTool, UnfoldingSource {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  /** Every inner tool (for category facades, all categories' tools once each). */
  readonly innerTools: readonly Tool[];
  /** Guidance on the child tools, shown once after unfolding. */
  readonly childToolUsageNotes: string | undefined;
  /** Whether unfolding removes every other tool. */
  readonly exclusive: boolean;
  /** @deprecated Ignored: the facade is always replaced by its guide tool. Kept for compatibility. */
  readonly removeOnInvoke: boolean;
  private readonly selector: ToolSelector | undefined;
  private readonly records = new UnfoldingRecords();

  private constructor(init: UnfoldingToolInit) {
    super();
    this.definition = init.definition;
    this.innerTools = init.innerTools;
    this.selector = init.selector;
    this.childToolUsageNotes = init.notes;
    this.exclusive = init.exclusive;
    this.removeOnInvoke = init.removeOnInvoke;
    Object.defineProperty(this, BRAND, { value: true });
    checkUniqueToolNames(this.definition.name, this.innerTools, facadeBehind);
  }

  /** A facade that unfolds into all of `tools`; its input schema is empty. */
  static of(
    name: string,
    description: string,
    tools: readonly Tool[],
    options: UnfoldingToolOptions = {},
  ): UnfoldingTool {
    return new UnfoldingTool(initOf(name, description, InputSchema.empty(), tools, undefined, options));
  }

  /**
   * A facade whose one required parameter (`category` unless renamed) is an
   * enum of the categories; it unfolds into that category's tools, or into
   * every tool when the category is unknown, missing or blank.
   */
  static byCategory(
    name: string,
    description: string,
    toolsByCategory: ToolsByCategory,
    options: CategoryUnfoldingToolOptions = {},
  ): UnfoldingTool {
    const categories = categoryMap(toolsByCategory);
    if (categories.size === 0) {
      throw new ConfigurationError(`UnfoldingTool.byCategory('${name}') needs at least one category.`);
    }
    const parameter = options.categoryParameter ?? "category";
    if (parameter.trim() === "") {
      throw new ConfigurationError(
        `UnfoldingTool.byCategory('${name}'): categoryParameter must not be blank.`,
      );
    }
    const all = distinctTools([...categories.values()].flat(), name);
    const schema = categorySchema(parameter, [...categories.keys()]);
    const selector = categorySelector(parameter, categories, all);
    return new UnfoldingTool(initOf(name, description, schema, all, selector, options));
  }

  /**
   * A facade with its own input schema whose `selector` chooses (or builds)
   * the tools to unfold from the call's input. A selector returning no tools
   * changes nothing.
   */
  static selectable(
    name: string,
    description: string,
    tools: readonly Tool[],
    inputSchema: InputSchema | z.ZodType,
    selector: ToolSelector,
    options: UnfoldingToolOptions = {},
  ): UnfoldingTool {
    const schema = InputSchema.isInputSchema(inputSchema)
      ? inputSchema
      : InputSchema.fromZod(inputSchema, `UnfoldingTool '${name}'`);
    return new UnfoldingTool(initOf(name, description, schema, tools, selector, options));
  }

  /**
   * A facade the LLM sees as one tool taking a `query` (and an optional
   * `limit`, default 5): a call answers with the best matching tools' names
   * and descriptions and appends exactly those tools to the tool list; the
   * facade stays, so the model can search again. `tools` may be any tools
   * (MCP tools, tool objects' tools, nested facades). Ranking is lexical
   * (BM25), fused with vector similarity when the platform has an embedding
   * model (see `docs/tool-search.md`).
   */
  static searchable(
    name: string,
    description: string,
    tools: readonly Tool[],
    options: SearchableToolOptions = {},
  ): SearchableTool {
    return new SearchableTool(name, description, tools, options);
  }

  /**
   * The facade of an `@unfoldingTools` instance: its `@llmTool` methods and
   * nested `@unfoldingTools` classes (static members), grouped by category
   * when some method has one. Throws a `ConfigurationError` when the class
   * lacks the decorator or has no tools.
   */
  static fromInstance(instance: object): UnfoldingTool {
    return facadeFromInstance(instance, FACADE_FACTORIES) as UnfoldingTool;
  }

  /** Like {@link UnfoldingTool.fromInstance}, but `undefined` when the class lacks the decorator or has no tools. */
  static safelyFromInstance(instance: object): UnfoldingTool | undefined {
    return safelyFacadeFromInstance(instance, FACADE_FACTORIES) as UnfoldingTool | undefined;
  }

  /** A simple facade over the `@llmTool` methods of any object (no `@unfoldingTools` needed). */
  static fromToolObject(
    object: object,
    name: string,
    description: string,
    options: UnfoldingToolOptions = {},
  ): UnfoldingTool {
    return UnfoldingTool.of(name, description, toolsOfObject(object), options);
  }

  /** True when the object's class (or a superclass) is decorated with `@unfoldingTools`. */
  static isAnnotated(instance: object): boolean {
    return unfoldingToolsOptionsOf(instance) !== undefined;
  }

  /** True for unfolding tools (also across duplicate copies of this package). */
  static isUnfoldingTool(tool: unknown): tool is UnfoldingTool {
    return typeof tool === "object" && tool !== null && (tool as Record<symbol, unknown>)[BRAND] === true;
  }

  /** Whether the facade chooses its tools from its input (category and selectable facades). */
  get selects(): boolean {
    return this.selector !== undefined;
  }

  /** The fixed inner tools, whatever the process. */
  innerToolsFor(_process?: AmbientProcess): readonly Tool[] {
    return this.innerTools;
  }

  /** The tools a call with `input` unfolds into (all inner tools, unless the facade selects). */
  async selectTools(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = NO_OPTIONS,
  ): Promise<readonly Tool[]> {
    if (!this.selector) return this.innerTools;
    return distinctTools((await this.selector(input, context, options)) ?? [], this.definition.name);
  }

  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = NO_OPTIONS,
  ): Promise<ToolResult> {
    const shortcut = findShortcut(input, this.innerTools);
    const selected = await this.selectTools(input, context, options);
    if (shortcut) {
      const via = shortcut.tool;
      const { result, input: ran } = await runShortcut(shortcut, context, options);
      const offered = selected.length > 0 ? selected : [via];
      const nested = Unfolding.ofCall(via, { input: ran, context, definition: via.definition }, result);
      const returnDirect = via.metadata.returnDirect || nested?.returnDirect === true;
      this.records.record(context, input, (definition) => {
        const unfolding = this.unfolding(definition, offered, via, nested);
        return returnDirect ? { ...unfolding, returnDirect } : unfolding;
      });
      return result;
    }
    if (selected.length === 0) {
      this.records.record(context, input, undefined);
      return ToolResult.text(nothingSelectedMessage(this.definition.name));
    }
    this.records.record(context, input, (definition) => this.unfolding(definition, selected));
    return ToolResult.text(unfoldedMessage(selected, this.childToolUsageNotes));
  }

  /** What this facade's latest call with the input in the call's loop unfolded, offered under `call.definition`. */
  unfoldingFor(call: UnfoldingCall): Unfolding | undefined {
    return this.records.find(call);
  }

  /**
   * The guide and `<name>_context` tool a stopped loop had offered (known by
   * its context tool's name among `offered`), over the inner tools it offered.
   */
  restoredUnfolding(definition: ToolDefinition, offered: ReadonlySet<string>): Unfolding | undefined {
    if (!offered.has(contextToolName(definition.name))) return undefined;
    return this.unfolding(
      definition,
      this.innerTools.filter((tool) => offered.has(tool.definition.name)),
    );
  }

  /**
   * A facade with `tools` appended, keeping everything else: name,
   * description, schema, notes, `exclusive`, and the selector (the new tools
   * are offered with every selection that is not empty: a selector selecting
   * nothing still changes nothing).
   */
  withTools(...tools: Tool[]): UnfoldingTool {
    const selector = this.selector;
    const extended: ToolSelector | undefined = selector
      ? async (input, context, options) => {
          const selected = (await selector(input, context, options)) ?? [];
          return selected.length === 0 ? selected : [...selected, ...tools];
        }
      : undefined;
    return this.copy(
      { innerTools: distinctTools([...this.innerTools, ...tools], this.definition.name) },
      extended,
    );
  }

  /** {@link UnfoldingTool.withTools} with an object's tools (`@llmTool` methods, a `ToolObject`, or a tool). */
  withToolObject(object: object): UnfoldingTool {
    return this.withTools(...toolsOfObject(object));
  }

  override withName(name: string): UnfoldingTool {
    const { description, inputSchema, metadata } = this.definition;
    return this.copy({ definition: toolDefinition(name, description, inputSchema, metadata) });
  }

  override withDescription(description: string): UnfoldingTool {
    const { name, inputSchema, metadata } = this.definition;
    return this.copy({ definition: toolDefinition(name, description, inputSchema, metadata) });
  }

  override withNote(note: string): UnfoldingTool {
    return this.withDescription(appendNote(this.definition.description, note));
  }

  override withDefinitionMetadata(metadata: Readonly<Record<string, unknown>>): UnfoldingTool {
    const { name, description, inputSchema } = this.definition;
    return this.copy({
      definition: toolDefinition(name, description, inputSchema, {
        ...this.definition.metadata,
        ...metadata,
      }),
    });
  }

  private copy(
    changes: Partial<UnfoldingToolInit>,
    selector: ToolSelector | undefined = this.selector,
  ): UnfoldingTool {
    return new UnfoldingTool({
      definition: this.definition,
      innerTools: this.innerTools,
      notes: this.childToolUsageNotes,
      exclusive: this.exclusive,
      removeOnInvoke: this.removeOnInvoke,
      ...changes,
      selector,
    });
  }

  /** The change to the tool list a call makes ({@link facadeUnfolding}). */
  private unfolding(
    definition: ToolDefinition,
    selected: readonly Tool[],
    via?: Tool,
    nested?: Unfolding,
  ): Unfolding {
    const reselect: Reselect | undefined = this.selector
      ? (input, context, options) => this.selectTools(input, context, options)
      : undefined;
    const facade = {
      description: this.definition.description,
      notes: this.childToolUsageNotes,
      exclusive: this.exclusive,
      reselect,
    };
    return facadeUnfolding(facade, definition, selected, via, nested);
  }
}

/** The factories `fromInstance` builds annotated classes with (made once, not per call). */
// Stryker disable ObjectLiteral,ArrowFunction: static (run once per test worker, so Stryker can't attribute it); killed by the fromInstance tests of unfolding-tools.test.ts, checked by hand
const FACADE_FACTORIES: FacadeFactories = {
  of: (name, description, tools, options) => UnfoldingTool.of(name, description, tools, options),
  byCategory: (name, description, categories, options) =>
    UnfoldingTool.byCategory(name, description, categories, options),
};
// Stryker restore ObjectLiteral,ArrowFunction
