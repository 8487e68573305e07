import { ToolCallContext } from "./tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "./tool-definition.js";
import type { Tool, ToolCallOptions } from "./tool-interface.js";
import type { ToolMetadata } from "./tool-metadata.js";
import type { ToolResult } from "./tool-result.js";

/**
 * Base class for tools: implement `definition`, `metadata` and `call`, and get
 * `withName`, `withDescription`, `withNote` and `withDefinitionMetadata`.
 */
export abstract class AbstractTool implements Tool {
  abstract readonly definition: ToolDefinition;
  abstract readonly metadata: ToolMetadata;
  abstract call(input: string, context?: ToolCallContext, options?: ToolCallOptions): Promise<ToolResult>;

  /** A copy called `name`; schema, metadata and behaviour unchanged. */
  withName(name: string): Tool {
    const { description, inputSchema, metadata } = this.definition;
    return new DescribedTool(this, toolDefinition(name, description, inputSchema, metadata));
  }

  /** A copy whose description is `description`; everything else unchanged. */
  withDescription(description: string): Tool {
    const { name, inputSchema, metadata } = this.definition;
    return new DescribedTool(this, toolDefinition(name, description, inputSchema, metadata));
  }

  /** A copy whose description is `"<description>. <note>"` (no second period after one already there); notes accumulate. */
  withNote(note: string): Tool {
    return this.withDescription(appendNote(this.definition.description, note));
  }

  /** A copy whose definition metadata has `metadata` merged in (new values win). */
  withDefinitionMetadata(metadata: Readonly<Record<string, unknown>>): Tool {
    const { name, description, inputSchema } = this.definition;
    return new DescribedTool(
      this,
      toolDefinition(name, description, inputSchema, { ...this.definition.metadata, ...metadata }),
    );
  }

  toString(): string {
    return `${this.constructor.name}(${this.definition.name})`;
  }
}

/**
 * `"<description>. <note>"`; a description already ending in `.`, `!` or `?`
 * gets just a space before the note, so no `..` appears.
 */
export function appendNote(description: string, note: string): string {
  const base = description.trimEnd();
  if (base === "") return note;
  return /[.!?]$/.test(base) ? `${base} ${note}` : `${base}. ${note}`;
}

/**
 * A tool that wraps another. Definition, metadata (so `returnDirect`) and the
 * call, with its context and signal, pass to `delegate` unless a subclass
 * overrides them; `call` is the one place for a decorator's logic.
 */
export class DelegatingTool extends AbstractTool {
  constructor(readonly delegate: Tool) {
    super();
  }

  get definition(): ToolDefinition {
    return this.delegate.definition;
  }

  get metadata(): ToolMetadata {
    return this.delegate.metadata;
  }

  call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    // Not gated again: a decorator's call is the gated call itself (same definition, metadata and input, admitted by whichever route called it).
    return this.delegate.call(input, context, options);
  }

  /**
   * The first tool in the `delegate` chain (starting with `tool` itself) that
   * `matches`, or `undefined`. Any tool with a `delegate` tool is followed,
   * whether or not it extends this class.
   */
  static unwrap<T extends Tool>(tool: Tool, matches: (candidate: Tool) => candidate is T): T | undefined {
    let current: Tool | undefined = tool;
    while (current) {
      if (matches(current)) return current;
      current = delegateOf(current);
    }
    return undefined;
  }
}

/** The tool `tool` wraps: its `delegate` when that is a tool. */
function delegateOf(tool: Tool): Tool | undefined {
  if (tool instanceof DelegatingTool) return tool.delegate;
  const delegate = (tool as { readonly delegate?: unknown }).delegate;
  return typeof delegate === "object" && delegate !== null && typeof (delegate as Tool).call === "function"
    ? (delegate as Tool)
    : undefined;
}

/** The wrapper behind `withName`, `withDescription` and `withNote`. */
class DescribedTool extends DelegatingTool {
  constructor(
    delegate: Tool,
    private readonly described: ToolDefinition,
  ) {
    super(delegate);
  }

  override get definition(): ToolDefinition {
    return this.described;
  }
}
