export { ConfigurationError } from "./configuration-error.js";
export { EmbabelError } from "./embabel-error.js";
export { type BlackboardUpdater, ReplanRequested } from "./replan-requested.js";
export { ToolControlFlowSignal } from "./tool-control-flow-signal.js";
