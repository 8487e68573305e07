export {
  AgentTool,
  type AgentToolOptions,
  ENTRY_POINT_OPTIONS,
  type ProcessOptionsCreator,
} from "./agent-tool.js";
export { Asset } from "./asset.js";
export { AssetAddingTool, type AssetAddingToolOptions } from "./asset-adding-tool.js";
export {
  AbstractAssetTracker,
  type AssetFilter,
  AssetTracker,
  InMemoryAssetTracker,
} from "./asset-tracker.js";
export { GoalTool, type GoalToolOptions, sanitizedGoalName } from "./goal-tool.js";
export { Subagent, type SubagentBuilder } from "./subagent.js";
export { SubagentTool } from "./subagent-tool.js";
