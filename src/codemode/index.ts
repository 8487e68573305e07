export type { CodeModeOptions } from "./code-mode-options.js";
export { CodeModeSearchTool } from "./code-mode-search-tool.js";
export { CodeModeTool } from "./code-mode-tool.js";
