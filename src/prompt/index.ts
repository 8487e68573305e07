export { CoreToolGroups } from "./core-tool-groups.js";
export type { GeneratedToolCall, GenerateResult, GenerateStep } from "./generate-result.js";
export { type LlmInteractionCall, LlmInteractionHost } from "./llm-interaction-host.js";
export { LlmReference } from "./llm-reference.js";
export { type AssistantMessage, Message, type UserMessage } from "./message.js";
export {
  type ObjectCreator,
  type PromptCallOptions,
  PromptRunner,
  type ToolGroupSpec,
} from "./prompt-runner.js";
export type { PromptRunnerServices } from "./prompt-runner-services.js";
export type { SkillSet } from "./skill-set.js";
export type { TextStream } from "./text-stream.js";
export {
  ToolGroup,
  type ToolGroupDescription,
  type ToolGroupMetadata,
  type ToolGroupOptions,
  ToolGroupPermission,
} from "./tool-group.js";
export {
  resolveToolGroup,
  ToolGroupRegistry,
  type ToolGroupRequirement,
  type ToolGroupResolver,
} from "./tool-group-registry.js";
export { type ToolNameFilter, type ToolNamingStrategy, ToolObject } from "./tool-object.js";
