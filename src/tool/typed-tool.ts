import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { AbstractTool } from "./abstract-tool.js";
import { InputSchema } from "./input-schema.js";
import { ownPropertiesFor } from "./own-properties.js";
import { ToolCallContext } from "./tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "./tool-definition.js";
import { readToolInput, type ToolInputTarget } from "./tool-input.js";
import type { ToolCallOptions } from "./tool-interface.js";
import { ToolMetadata } from "./tool-metadata.js";
import { failedToolResult, typedToolResult } from "./tool-output.js";
import type { ToolResult } from "./tool-result.js";
import { type TypeLike, type TypeOf, TypeToken } from "./type-token.js";

/** The function behind a typed tool: the parsed input in, the output (or a {@link ToolResult}) out. */
export type TypedToolFunction<I, O> = (
  input: I,
  context: ToolCallContext,
  options: ToolCallOptions,
) => O | ToolResult | Promise<O | ToolResult>;

/** Options of {@link TypedTool}. */
export interface TypedToolOptions<I extends TypeLike, O extends TypeLike> {
  /** The name the LLM calls; must match `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** What the tool does. */
  readonly description: string;
  /** The input type (a zod object schema, a `domainType`, or a class with a static zod `schema`); the tool's schema is derived from it. */
  readonly inputType: I;
  /** The output type; a `String` / `z.string()` output is returned unquoted. */
  readonly outputType: O;
  /** How the loop treats the tool. @default ToolMetadata.DEFAULT */
  readonly metadata?: ToolMetadata;
  /** The function. */
  readonly fn: TypedToolFunction<TypeOf<I>, TypeOf<O>>;
}

const NO_OPTIONS: ToolCallOptions = Object.freeze({});

/**
 * A tool that works on domain values: its input schema is derived from the
 * input type, the LLM's JSON is parsed and validated into that type, and the
 * output is serialized as compact JSON (strings unquoted, a {@link ToolResult}
 * as is). Thrown errors become error results; control-flow signals propagate.
 */
export class TypedTool<I extends TypeLike, O extends TypeLike> extends AbstractTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  /** The input type's token. */
  readonly inputType: TypeToken<TypeOf<I>>;
  /** The output type's token. */
  readonly outputType: TypeToken<TypeOf<O>>;
  private readonly fn: TypedToolFunction<TypeOf<I>, TypeOf<O>>;
  private readonly input: ToolInputTarget<TypeOf<I>>;

  constructor(options: TypedToolOptions<I, O>) {
    super();
    this.inputType = TypeToken.of(options.inputType) as TypeToken<TypeOf<I>>;
    this.outputType = TypeToken.of(options.outputType) as TypeToken<TypeOf<O>>;
    const jsonSchema = this.inputType.jsonSchema;
    if (jsonSchema.type !== "object") {
      throw new ConfigurationError(
        `The input type ${this.inputType.name} of tool '${options.name}' must be an object type (a zod object schema, a domainType or a class); LLM tool arguments are always a JSON object.`,
      );
    }
    this.metadata = options.metadata ?? ToolMetadata.DEFAULT;
    this.fn = options.fn;
    const token = this.inputType;
    // An anonymous zod schema has no type name worth showing the LLM ("Object", or its description).
    const typeName = options.inputType instanceof z.ZodType ? `tool '${options.name}'` : token.name;
    const own = ownPropertiesFor(jsonSchema);
    const read = (value: unknown): TypeOf<I> => token.parse(own(value));
    this.input = { toolName: options.name, typeName, read };
    this.definition = toolDefinition(
      options.name,
      options.description,
      InputSchema.withReader(InputSchema.fromJsonSchema(jsonSchema), read),
    );
  }

  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = NO_OPTIONS,
  ): Promise<ToolResult> {
    const parsed = readToolInput(input, this.input);
    if (!parsed.ok) return parsed.error;
    try {
      return typedToolResult(await this.fn(parsed.value, context, options));
    } catch (error) {
      return failedToolResult(error);
    }
  }
}

/** The options form of `Tool.fromFunction`: `Tool.fromFunction({ name, description, input, execute })`. */
export interface FunctionToolOptions<I extends TypeLike, O extends TypeLike = z.ZodUnknown> {
  /** The name the LLM calls; must match `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** What the tool does, as the LLM reads it. */
  readonly description: string;
  /** The input type (a zod object schema, a `domainType`, or a class with a static zod `schema`); the tool's schema is derived from it. */
  readonly input: I;
  /** The output type; a `String` / `z.string()` output is returned unquoted. @default any value (serialized as compact JSON) */
  readonly output?: O;
  /** How the loop treats the tool. @default ToolMetadata.DEFAULT */
  readonly metadata?: ToolMetadata;
  /** Runs the tool: the parsed, validated input in; the output (or a `ToolResult`) out. */
  readonly execute: TypedToolFunction<TypeOf<I>, TypeOf<O>>;
}

const ANY_OUTPUT = z.unknown();

/** `Tool.fromFunction({ name, description, input, output?, metadata?, execute })`. */
export function fromFunction<I extends TypeLike, O extends TypeLike = z.ZodUnknown>(
  options: FunctionToolOptions<I, O>,
): TypedTool<I, O>;
/** `Tool.fromFunction(name, description, inputType, outputType, [metadata,] fn)`. */
export function fromFunction<I extends TypeLike, O extends TypeLike>(
  name: string,
  description: string,
  inputType: I,
  outputType: O,
  ...rest:
    | [fn: TypedToolFunction<TypeOf<I>, TypeOf<O>>]
    | [metadata: ToolMetadata, fn: TypedToolFunction<TypeOf<I>, TypeOf<O>>]
): TypedTool<I, O>;
export function fromFunction<I extends TypeLike, O extends TypeLike>(
  nameOrOptions: string | FunctionToolOptions<I, O>,
  description?: string,
  inputType?: I,
  outputType?: O,
  ...rest:
    | [fn: TypedToolFunction<TypeOf<I>, TypeOf<O>>]
    | [metadata: ToolMetadata, fn: TypedToolFunction<TypeOf<I>, TypeOf<O>>]
    | []
): TypedTool<I, O> {
  if (typeof nameOrOptions === "object" && nameOrOptions !== null) return fromOptions(nameOrOptions);
  const name = nameOrOptions;
  const [metadata, fn] = rest.length === 1 ? [undefined, rest[0]] : rest;
  if (typeof fn !== "function")
    throw new ConfigurationError(`Tool '${name}' was created without a function.`);
  return new TypedTool({
    name,
    description: description as string,
    inputType: inputType as I,
    outputType: outputType as O,
    ...(metadata ? { metadata } : {}),
    fn,
  });
}

function fromOptions<I extends TypeLike, O extends TypeLike>(
  options: FunctionToolOptions<I, O>,
): TypedTool<I, O> {
  const label =
    typeof options.name === "string" ? `Tool '${options.name}'` : "Tool.fromFunction({ name, ... })";
  const missing = (["name", "description", "input", "execute"] as const).filter(
    (key) => options[key] === undefined || options[key] === null,
  );
  if (missing.length > 0) {
    throw new ConfigurationError(
      `${label} needs ${missing.map((key) => `'${key}'`).join(", ")}: Tool.fromFunction({ name, description, input, execute }).`,
    );
  }
  if (typeof options.execute !== "function") {
    throw new ConfigurationError(`${label}: 'execute' must be a function, got ${typeof options.execute}.`);
  }
  return new TypedTool({
    name: options.name,
    description: options.description,
    inputType: options.input,
    outputType: (options.output ?? ANY_OUTPUT) as O,
    ...(options.metadata ? { metadata: options.metadata } : {}),
    fn: options.execute,
  });
}
