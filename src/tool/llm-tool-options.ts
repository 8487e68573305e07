import type { z } from "zod";
import type { ToolApproval } from "./tool-approval.js";

/** Options of the `@llmTool` decorator. */
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

/** The key under which `@llmTool` records a class's tool methods (a `Symbol.for` key, shared by every copy of the package). */
export const TOOL_METHODS: unique symbol = Symbol.for("embabel-ts.llm-tool-methods");
