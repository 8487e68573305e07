export { AbstractTool, DelegatingTool } from "./abstract-tool.js";
export { AmbientProcess } from "./ambient-process.js";
export type {
  ApprovalAnswer,
  ApprovalAuthority,
  ApprovalCallback,
  ApprovalCheck,
  ApprovalQuestion,
} from "./approval-authority.js";
export { ApprovalGrant } from "./approval-grant.js";
export { ArtifactSink, type ArtifactSinkLike } from "./artifact-sink.js";
export { type ArtifactSinkingOptions, ArtifactSinkingTool } from "./artifact-sinking-tool.js";
export { BlackboardSink, type BlackboardTarget } from "./blackboard-sink.js";
export { CompositeSink } from "./composite-sink.js";
export {
  type DecoratorMetadataObject,
  decoratorMetadataOf,
  METADATA,
  metadataListsOf,
  ownMetadataList,
} from "./decorator-metadata.js";
export { FunctionTool, type ToolHandler } from "./function-tool.js";
export { InputSchema, type JsonSchema, zodToJsonSchema } from "./input-schema.js";
export {
  describeToolMethods,
  type InstanceToolsFactory,
  registerInstanceToolsFactory,
  type ToolMethodDescription,
} from "./instance-tools.js";
export { ListSink } from "./list-sink.js";
export { llmTool } from "./llm-tool.js";
export type { LlmToolInput, LlmToolOptions } from "./llm-tool-options.js";
export { type LogFields, Logger, type LoggerLevel, type StderrLoggerOptions } from "./logger.js";
export { LoopMemo, type LoopMemoOptions } from "./loop-memo.js";
export { MethodTool } from "./method-tool.js";
export { type OneShotPerLoopOptions, OneShotPerLoopTool } from "./one-shot-per-loop-tool.js";
export { Param, type ParamOptions, type ParamType } from "./param.js";
export {
  type ArtifactReplanDecider,
  ConditionalReplanningTool,
  type ReplanContentUpdater,
  type ReplanContext,
  type ReplanDecider,
  type ReplanDecision,
  ReplanningTool,
} from "./replanning-tool.js";
export { callGranted, requireApproval, type ToolInputOf } from "./require-approval.js";
export { Tool, type ToolCallOptions } from "./tool.js";
export type { ToolApproval } from "./tool-approval.js";
export { ToolCallContext, type ToolCallContextInit } from "./tool-call-context.js";
export { type AudioContent, type ImageContent, type ResourceContent, ToolContent } from "./tool-content.js";
export { normalizeToolName, type ToolDefinition, validateToolName } from "./tool-definition.js";
export { ToolMetadata, type ToolMetadataInit } from "./tool-metadata.js";
export { type ArtifactResult, type ErrorResult, type TextResult, ToolResult } from "./tool-result.js";
export { formatToolTree } from "./tool-tree.js";
export {
  DomainType,
  describeZodIssues,
  domainType,
  type TypeLike,
  type TypeOf,
  TypeParseError,
  TypeToken,
  typeNameOf,
  typeNamesOf,
} from "./type-token.js";
export {
  type FunctionToolOptions,
  TypedTool,
  type TypedToolFunction,
  type TypedToolOptions,
} from "./typed-tool.js";
export {
  isNestedTool,
  type NestedTool,
  Unfolding,
  type UnfoldingCall,
  type UnfoldingSource,
} from "./unfolding.js";
