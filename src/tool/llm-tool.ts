import type { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { metadataListsOf, ownMetadataList } from "./decorator-metadata.js";
import type { ToolApproval } from "./tool-approval.js";
import type { ToolCallContext } from "./tool-call-context.js";
import { validateToolName } from "./tool-definition.js";
import type { ToolCallOptions } from "./tool-interface.js";

/** Options of the {@link llmTool} decorator. */
export interface LlmToolOptions<S extends z.ZodObject = z.ZodObject> {
  /** What the tool does; the LLM reads it to decide when to call the tool. */
  readonly description: string;
  /** The tool name; must match `^[a-zA-Z0-9_-]{1,64}$`. @default the method name (without `#` for a private method) */
  readonly name?: string;
  /** The tool's result is the final answer, with no further LLM call. @default false */
  readonly returnDirect?: boolean;
  /** A call running longer is answered in-band as timed out (see `ToolMetadata.toolTimeoutMs`). @default the loop's setting */
  readonly toolTimeoutMs?: number;
  /** The most characters of one result sent to the model (see `ToolMetadata.maxResultChars`). @default the loop's setting (100000) */
  readonly maxResultChars?: number;
  /** Each call passes the approval gate first (options as `Tool.requireApproval`, `when`/`message` typed by the input). @default false */
  readonly requireApproval?: boolean | ToolApproval<z.output<S>>;
  /** @deprecated Use `requireApproval` (the same setting, spelled as `Tool.requireApproval`). @default false */
  readonly requiresApproval?: boolean | ToolApproval<z.output<S>>;
  /** Groups the tool for `UnfoldingTool.byCategory` and `@unfoldingTools` classes. @default none */
  readonly category?: string;
  /** The tool's input; the method receives the parsed object. @default no input */
  readonly input?: S;
  /** Application data for `definition.metadata`; never sent to the LLM. @default {} */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** The parsed input an `@llmTool` method receives: the schema's output type, or `{}` without one. */
export type LlmToolInput<S extends z.ZodObject> = z.output<S>;

/** One `@llmTool` method as recorded on its class. */
export interface ToolMethodEntry {
  /** The method's name (`context.name`). */
  readonly methodName: string | symbol;
  /** The tool's name (validated when the class is defined). */
  readonly toolName: string;
  /** Identifies the method across the class chain, so an overriding declaration replaces its parent's. */
  readonly key: unknown;
  /** Static methods are called on the class, others on the instance. */
  readonly isStatic: boolean;
  /** Reads the method off an instance (or class); works for `#private` methods too. */
  readonly get: (target: object) => unknown;
  readonly options: LlmToolOptions;
  /** The class declaring a static method (recorded when it is defined), so subclasses call it there. */
  owner?: object;
  /** Cache for whatever the tool layer derives once per method (definition, schema). */
  compiled?: unknown;
}

const TOOL_METHODS = Symbol.for("embabel-ts.llm-tool-methods");

/**
 * Marks a method as a tool the LLM can call (the specification's `@LlmTool`),
 * as a TC39 standard decorator. The method receives the parsed, validated
 * `input` object and the call's {@link ToolCallContext}; without an `input`
 * schema it takes no input. It may be sync or async and return a string, a
 * `ToolResult`, any JSON-serializable value (also attached as the artifact),
 * or nothing. Collect the tools with `Tool.fromInstance(obj)`.
 *
 * @example
 * class MathTools {
 *   @llmTool({ description: "Adds two numbers", input: z.object({ a: z.number(), b: z.number() }) })
 *   add({ a, b }: { a: number; b: number }) { return a + b; }
 * }
 */
export function llmTool<S extends z.ZodObject = z.ZodObject<{}>>(options: LlmToolOptions<S>) {
  return <
    This,
    M extends (this: This, input: z.output<S>, context: ToolCallContext, options: ToolCallOptions) => unknown,
  >(
    _method: M,
    context: ClassMethodDecoratorContext<This, M>,
  ): void => {
    if ((context as { kind: string }).kind !== "method") {
      throw new ConfigurationError(
        `@llmTool decorates methods only, not the ${(context as { kind: string }).kind} '${String(context.name)}'.`,
      );
    }
    if (typeof context.name === "symbol" && options.name === undefined) {
      throw new ConfigurationError(
        `@llmTool on the symbol-named method ${String(context.name)} needs an explicit name.`,
      );
    }
    const toolName = options.name ?? String(context.name).replace(/^#/, "");
    try {
      validateToolName(toolName);
    } catch (error) {
      throw new ConfigurationError(
        `@llmTool on method '${String(context.name)}': ${(error as Error).message}`,
      );
    }
    const metadata = context.metadata as Record<PropertyKey, unknown> | undefined;
    if (!metadata) {
      throw new ConfigurationError(
        `@llmTool on method '${String(context.name)}' received no decorator metadata: compile with TypeScript 5.2+ or esbuild 0.21+ (standard decorators), and import embabel-ts before defining the class.`,
      );
    }
    const get = context.access.get as (target: object) => unknown;
    const entry: ToolMethodEntry = {
      methodName: context.name,
      toolName,
      key: context.private ? {} : `${context.static ? "static " : ""}${String(context.name)}`,
      isStatic: context.static,
      get,
      options: options as LlmToolOptions,
    };
    if (context.static) {
      context.addInitializer(function (this: This) {
        entry.owner = this as object;
      });
    }
    ownMetadataList<ToolMethodEntry>(metadata, TOOL_METHODS).push(entry);
  };
}

/**
 * The `@llmTool` methods of an instance's class chain: superclass methods
 * first, each class's instance methods in declaration order then its static
 * ones; a redeclared (overriding) method keeps its parent's position and
 * takes the subclass's options.
 */
export function toolMethodEntriesOf(target: object): ToolMethodEntry[] {
  const byKey = new Map<unknown, ToolMethodEntry>();
  for (const list of metadataListsOf<ToolMethodEntry>(target, TOOL_METHODS)) {
    // Transpilers decorate static methods before instance ones; list instance methods first.
    for (const entry of list) if (!entry.isStatic) byKey.set(entry.key, entry);
    for (const entry of list) if (entry.isStatic) byKey.set(entry.key, entry);
  }
  return [...byKey.values()];
}
