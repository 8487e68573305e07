export { ConfigurationError } from "./configuration-error.js";
export { EmbabelError } from "./embabel-error.js";
export { MaxIterationsExceededError } from "./max-iterations-exceeded-error.js";
export { McpServerError } from "./mcp-server-error.js";
export { type BlackboardUpdater, ReplanRequested } from "./replan-requested.js";
export { ScriptExhaustedError } from "./script-exhausted-error.js";
export { ToolControlFlowSignal } from "./tool-control-flow-signal.js";
export { ToolNotFoundError } from "./tool-not-found-error.js";
export { TypeParseError } from "./type-parse-error.js";
