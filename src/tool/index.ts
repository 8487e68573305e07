export { AbstractTool, DelegatingTool } from "./abstract-tool.js";
export { AmbientProcess } from "./ambient-process.js";
export { FunctionTool, type ToolHandler } from "./function-tool.js";
export { InputSchema, type JsonSchema } from "./input-schema.js";
export { Param, type ParamOptions, type ParamType } from "./param.js";
export { Tool, type ToolCallOptions } from "./tool.js";
export { ToolCallContext, type ToolCallContextInit } from "./tool-call-context.js";
export { normalizeToolName, type ToolDefinition, validateToolName } from "./tool-definition.js";
export { ToolMetadata } from "./tool-metadata.js";
export { type ArtifactResult, type ErrorResult, type TextResult, ToolResult } from "./tool-result.js";
export {
  DomainType,
  domainType,
  type TypeLike,
  type TypeOf,
  TypeParseError,
  TypeToken,
  typeNameOf,
  typeNamesOf,
} from "./type-token.js";
export { isNestedTool, type NestedTool, Unfolding } from "./unfolding.js";
