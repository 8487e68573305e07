// The built-in tools: process and blackboard introspection, progress, communication.

export { AgentProcessTools, NO_AGENT_PROCESS } from "./agent-process-tools.js";
export {
  type BlackboardEntryFormatter,
  DefaultBlackboardEntryFormatter,
  type HasContent,
  type HasInfoString,
} from "./blackboard-entry-formatter.js";
export { BlackboardTools, NO_BLACKBOARD } from "./blackboard-tools.js";
export { CommunicateTool } from "./communicate-tool.js";
export { ProgressTool } from "./progress-tool.js";
