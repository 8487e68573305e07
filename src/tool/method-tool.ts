import type { z } from "zod";
import { AbstractTool } from "./abstract-tool.js";
import { InputSchema } from "./input-schema.js";
import { TOOL_METHOD_NAME } from "./instance-tools.js";
import type { ToolMethodEntry } from "./llm-tool-options.js";
import { ownPropertiesFor } from "./own-properties.js";
import { callGranted } from "./require-approval.js";
import { checkApproval, type ToolApproval } from "./tool-approval.js";
import { ToolCallContext } from "./tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "./tool-definition.js";
import { readToolInput, type ToolInputTarget } from "./tool-input.js";
import type { ToolCallOptions } from "./tool-interface.js";
import { ToolMetadata } from "./tool-metadata.js";
import { failedToolResult, methodToolResult } from "./tool-output.js";
import type { ToolResult } from "./tool-result.js";
import { describeZodIssues, TypeParseError } from "./type-token.js";

/** What is derived once per `@llmTool` method and shared by every instance's tool. */
interface CompiledToolMethod {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  readonly input: ToolInputTarget<unknown> | undefined;
}

type BoundMethod = (input: unknown, context: ToolCallContext, options: ToolCallOptions) => unknown;

const NO_INPUT: Readonly<Record<string, never>> = Object.freeze({});
const NO_OPTIONS: ToolCallOptions = Object.freeze({});

function compile(entry: ToolMethodEntry, className: string): CompiledToolMethod {
  const { options } = entry;
  const name = entry.toolName;
  const schema = options.input;
  const plainSchema = schema
    ? InputSchema.fromZod(schema, `tool method ${className}.${String(entry.methodName)}`)
    : InputSchema.empty();
  const own = ownPropertiesFor(plainSchema.jsonSchema);
  const input: ToolInputTarget<unknown> | undefined = schema
    ? { toolName: name, typeName: `tool '${name}'`, read: (value) => readWith(schema, name, own(value)) }
    : undefined;
  const inputSchema = input ? InputSchema.withReader(plainSchema, input.read) : plainSchema;
  return {
    definition: toolDefinition(name, options.description, inputSchema, options.metadata ?? {}),
    metadata: withApproval(
      ToolMetadata.create({
        ...(options.returnDirect ? { returnDirect: true } : {}),
        ...(options.toolTimeoutMs !== undefined ? { toolTimeoutMs: options.toolTimeoutMs } : {}),
        ...(options.maxResultChars !== undefined ? { maxResultChars: options.maxResultChars } : {}),
      }),
      name,
      (options.requireApproval ?? options.requiresApproval) as boolean | ToolApproval | undefined,
    ),
    input,
  };
}

/** `metadata` with the method's `requireApproval` setting, when it has one. */
function withApproval(
  metadata: ToolMetadata,
  name: string,
  requireApproval: boolean | ToolApproval | undefined,
): ToolMetadata {
  if (!requireApproval) return metadata;
  const approval = requireApproval === true ? {} : requireApproval;
  checkApproval(name, approval);
  return Object.freeze({ ...metadata, approval });
}

function readWith(schema: z.ZodObject, name: string, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw new TypeParseError(name, describeZodIssues(result.error));
  return result.data;
}

/** The compiled form of `entry`, derived on first use and cached on the entry. */
function compiled(entry: ToolMethodEntry, className: string): CompiledToolMethod {
  entry.compiled ??= compile(entry, className);
  return entry.compiled as CompiledToolMethod;
}

/**
 * A tool backed by an `@llmTool` method bound to its instance. The method
 * receives the validated input and the context; its return value becomes the
 * result (`Tool.fromInstance`).
 */
export class MethodTool extends AbstractTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  /** The name of the method behind the tool (without `#` for a private method); differs from the tool's name under `@llmTool({ name })`. */
  readonly methodName: string;
  private readonly input: ToolInputTarget<unknown> | undefined;
  private readonly method: BoundMethod;
  private readonly target: object;

  constructor(instance: object, entry: ToolMethodEntry, className: string) {
    super();
    const { definition, metadata, input } = compiled(entry, className);
    this.definition = definition;
    this.metadata = metadata;
    this.methodName = String(entry.methodName).replace(/^#/, "");
    this.input = input;
    this.target = entry.isStatic ? (entry.owner ?? (instance.constructor as object)) : instance;
    this.method = entry.get(this.target) as BoundMethod;
  }

  /** Tells this tool's method name to `ToolObject`'s filter, across copies of the package. */
  get [TOOL_METHOD_NAME](): string {
    return this.methodName;
  }

  call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = NO_OPTIONS,
  ): Promise<ToolResult> {
    if (this.metadata.approval !== undefined)
      return callGranted(this.metadata, this.definition.name, input, () => this.run(input, context, options));
    return this.run(input, context, options);
  }

  private async run(input: string, context: ToolCallContext, options: ToolCallOptions): Promise<ToolResult> {
    let value: unknown = NO_INPUT;
    if (this.input) {
      const parsed = readToolInput(input, this.input);
      if (!parsed.ok) return parsed.error;
      value = parsed.value;
    }
    try {
      return methodToolResult(await this.method.call(this.target, value, context, options));
    } catch (error) {
      return failedToolResult(error);
    }
  }
}
