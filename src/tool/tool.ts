import { ConfigurationError } from "../errors/configuration-error.js";
import type { ArtifactSinkLike } from "./artifact-sink.js";
import { type ArtifactSinkingOptions, ArtifactSinkingTool } from "./artifact-sinking-tool.js";
import { BlackboardSink } from "./blackboard-sink.js";
import { FunctionTool, type ToolHandler } from "./function-tool.js";
import { InputSchema } from "./input-schema.js";
import { fromInstance, safelyFromInstance } from "./instance-tools.js";
import { Param } from "./param.js";
import { conditionalReplan, replanAlways, replanAndAdd, replanWhen } from "./replanning-tool.js";
import { requireApproval } from "./require-approval.js";
import { toolDefinition } from "./tool-definition.js";
import type { Tool as ToolInterface } from "./tool-interface.js";
import { ToolMetadata } from "./tool-metadata.js";
import { ToolResult } from "./tool-result.js";
import { formatToolTree } from "./tool-tree.js";
import { type TypeLike, type TypeOf, TypeToken } from "./type-token.js";
import { fromFunction } from "./typed-tool.js";

export type { ToolCallOptions } from "./tool-interface.js";

/**
 * A framework-agnostic tool: a definition the LLM sees, metadata the loop
 * reads, and an async call taking the LLM's raw JSON arguments plus an
 * out-of-band `ToolCallContext`. Declared in tool-interface.ts, below
 * the builders; the factories of the same name follow.
 *
 * @interface
 */
export type Tool = ToolInterface;

function create(name: string, description: string, handler: ToolHandler): Tool;
function create(name: string, description: string, inputSchema: InputSchema, handler: ToolHandler): Tool;
function create(name: string, description: string, metadata: ToolMetadata, handler: ToolHandler): Tool;
function create(
  name: string,
  description: string,
  inputSchema: InputSchema,
  metadata: ToolMetadata,
  handler: ToolHandler,
): Tool;
function create(name: string, description: string, ...rest: unknown[]): Tool {
  const owner = `Tool.create("${name}")`;
  const handler = rest[rest.length - 1];
  if (typeof handler !== "function") {
    throw new ConfigurationError(`${owner}: the last argument must be the handler function.`);
  }
  const leading = rest.slice(0, -1);
  if (leading.length > 2) {
    throw new ConfigurationError(
      `${owner}: takes (name, description, [inputSchema], [metadata], handler); got ${rest.length + 2} arguments.`,
    );
  }
  let inputSchema = InputSchema.empty();
  let metadata = ToolMetadata.DEFAULT;
  leading.forEach((argument, index) => {
    if (index === 0 && leading.length === 2) {
      if (!InputSchema.isInputSchema(argument)) {
        throw new ConfigurationError(`${owner}: the third of five arguments must be an InputSchema.`);
      }
      inputSchema = argument;
    } else if (InputSchema.isInputSchema(argument) && leading.length === 1) {
      inputSchema = argument;
    } else if (ToolMetadata.isToolMetadata(argument)) {
      metadata = argument;
    } else {
      throw new ConfigurationError(
        `${owner}: expected an InputSchema or ToolMetadata before the handler, got ${typeof argument === "object" ? JSON.stringify(argument) : typeof argument}.`,
      );
    }
  });
  return of(name, description, inputSchema, metadata, handler as ToolHandler);
}

function of(
  name: string,
  description: string,
  inputSchema: InputSchema,
  metadata: ToolMetadata,
  handler: ToolHandler,
): Tool {
  return new FunctionTool(toolDefinition(name, description, inputSchema), metadata, handler);
}

function sinkArtifacts<L extends TypeLike>(
  tool: Tool,
  type: L,
  sink: ArtifactSinkLike,
  options?: ArtifactSinkingOptions<TypeOf<L>>,
): ArtifactSinkingTool<L> {
  return new ArtifactSinkingTool(tool, type, sink, options);
}

function publishToBlackboard<L extends TypeLike = TypeToken<unknown>>(
  tool: Tool,
  type?: L,
  options?: ArtifactSinkingOptions<TypeOf<L>>,
): ArtifactSinkingTool<L> {
  return new ArtifactSinkingTool(tool, (type ?? TypeToken.ANY) as L, new BlackboardSink(), options);
}

/**
 * Factories for tools; the specification's `Tool.create(...)`, `Tool.of(...)`,
 * and its nested names `Tool.Parameter`, `Tool.Result`, `Tool.InputSchema`, `Tool.Metadata`.
 */
export const Tool = {
  /** A tool from a handler, optionally with an input schema or metadata. */
  create,
  /** A tool with an input schema, metadata and a handler. */
  of,
  /**
   * A typed tool: the schema comes from the input type, the LLM's JSON is
   * validated into it, the output is serialized as JSON (strings unquoted).
   */
  fromFunction,
  /** One tool per `@llmTool` method of `instance`; throws a `ConfigurationError` naming the class when there are none. */
  fromInstance,
  /** Like `fromInstance`, but an empty list when the object has no tool methods. */
  safelyFromInstance,
  /** Wraps `tool` so that the artifacts of `type` it returns go to `sink`, a sink or a function (filtered, then transformed). */
  sinkArtifacts,
  /** Wraps `tool` so that its artifacts (of `type`, default any) are added to the current process's blackboard. */
  publishToBlackboard,
  /** Wraps `tool` so that it always asks the agent process to replan after running (reason `<name> replans`). */
  replanAlways,
  /** Wraps `tool` so that it asks to replan when its artifact satisfies a predicate (reason `<name> replans based on result`). */
  replanWhen,
  /** Wraps `tool` so that it asks to replan, adding a computed value to the blackboard, when the computation gives one. */
  replanAndAdd,
  /** Wraps `tool` so that a decider, given its artifact, chooses whether to replan and how to update the blackboard. */
  conditionalReplan,
  /** Wraps `tool` so that, inside an agent process, each call (or each call `when` selects) waits for a person's approval before it runs. */
  requireApproval,
  /** A tree of the tools' names (nested tools indented): `├── a`, `└── b (2 inner tools)`. */
  formatToolTree,
  /** The parameter factories (same as {@link Param}). */
  Parameter: Param,
  /** The result factories (same as {@link ToolResult}), so the chapter's `Tool.Result.text(...)` reads as written. */
  Result: ToolResult,
  /** The input schema factories (same as {@link InputSchema}): `Tool.InputSchema.of(...)`. */
  InputSchema,
  /** The metadata factories (same as {@link ToolMetadata}): `Tool.Metadata.create({ returnDirect: true })`. */
  Metadata: ToolMetadata,
  /** True for values that implement {@link Tool}. */
  isTool(value: unknown): value is Tool {
    return (
      typeof value === "object" &&
      value !== null &&
      typeof (value as Tool).call === "function" &&
      typeof (value as Tool).definition === "object"
    );
  },
};
