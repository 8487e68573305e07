// Tool chaining: tools from the objects that tools return (loop layer; used by prompt and agentic).

export { DomainToolPlaceholder } from "./domain-tool-placeholder.js";
export { DomainToolPredicate } from "./domain-tool-predicate.js";
export { type DomainToolSource, DomainToolTracker } from "./domain-tool-tracker.js";
export { type ToolChaining, ToolChainingConfig, type ToolChainingSession } from "./tool-chaining.js";
export { ToolChainingInjectionStrategy } from "./tool-chaining-injection-strategy.js";
