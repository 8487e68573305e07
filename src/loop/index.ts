export { type AppliedToolInjection, applyToolInjection } from "./apply-tool-injection.js";
export { approvalCallbackAuthority } from "./approval-callback-authority.js";
export { ChainedToolInjectionStrategy } from "./chained-tool-injection-strategy.js";
export { type JsonSchemaValidator, jsonSchemaValidator } from "./json-schema-validator.js";
export {
  type AdmitOptions,
  type ApprovalAnswer,
  type ApprovalAuthority,
  type ApprovalCheck,
  admitToolCall,
  denialMessage,
  type GateAdmission,
  type GateCall,
  type GateEnvironment,
  type GateOutcome,
  gateToolCall,
  inputDigest,
  validateEdit,
} from "./tool-gate.js";
export {
  type LastToolCall,
  type ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "./tool-injection-strategy.js";
export {
  type LlmCallSettings,
  type LlmUsage,
  runToolLoop,
  type ToolLoopEvent,
  type ToolLoopOptions,
  type ToolLoopResult,
} from "./tool-loop.js";
export { ToolSet } from "./tool-set.js";
export { UnfoldingToolInjectionStrategy } from "./unfolding-tool-injection-strategy.js";
export { closestToolNames, type ToolNameMatchOptions, unknownToolMessage } from "./unknown-tool.js";
