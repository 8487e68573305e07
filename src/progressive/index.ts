export { ContextTool, contextToolName } from "./context-tool.js";
export { GuideTool } from "./guide-tool.js";
export { ProgressiveTool } from "./progressive-tool.js";
export { SearchableTool, type SearchableToolOptions } from "./searchable-tool.js";
export { SearchableToolGroup } from "./searchable-tool-group.js";
export { type ToolSearchHit, ToolSearchIndex, type ToolSearchOptions } from "./tool-search-index.js";
export type { ToolSelection, ToolSelector, ToolsByCategory } from "./tool-selection.js";
export { unfoldingReference } from "./unfolding-reference.js";
export {
  type CategoryUnfoldingToolOptions,
  UnfoldingTool,
  type UnfoldingToolOptions,
} from "./unfolding-tool.js";
export { unfoldingTools } from "./unfolding-tools.js";
export type { UnfoldingToolsOptions } from "./unfolding-tools-options.js";
