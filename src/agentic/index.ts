// The agentic layer: tools that run their own LLM loop over sub-tools.

export {
  type AgenticSession,
  type AgenticSystemPromptCreator,
  AgenticTool,
  defaultAgenticSystemPrompt,
  isAgenticTool,
} from "./agentic-tool.js";
export { SimpleAgenticTool } from "./simple-agentic-tool.js";
