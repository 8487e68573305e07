// The agentic layer: tools that run their own LLM loop over sub-tools.

export {
  type AgenticSession,
  type AgenticSystemPromptCreator,
  AgenticTool,
  defaultAgenticSystemPrompt,
  isAgenticTool,
} from "./agentic-tool.js";
export { PlaybookTool, PlaybookToolRegistration, type Prerequisite } from "./playbook-tool.js";
export { SimpleAgenticTool } from "./simple-agentic-tool.js";
export {
  type StateAwareSystemPromptCreator,
  StateMachineTool,
  type StatesInit,
  StateToolsBuilder,
} from "./state-machine-tool.js";
export type { PlaybookContext, UnlockCondition } from "./unlock-condition.js";
