export type { CodeModeOptions } from "./code-mode-options.js";
export { CodeModeTool } from "./code-mode-tool.js";
