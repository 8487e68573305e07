export {
  type EmbeddingModelChoice,
  EmbeddingModelRegistry,
  type EmbeddingModelRegistryOptions,
  type ResolvedEmbeddingModel,
} from "./embedding-model-registry.js";
export { asEmbeddingModelV3, type EmbeddingModelEntry } from "./embedding-model-v2-adapter.js";
export { asLanguageModelV3 } from "./language-model-v2-adapter.js";
export { LlmOptions, type LlmOptionsInit } from "./llm-options.js";
export {
  DEFAULT_OLLAMA_BASE_URL,
  type ModelIdOptions,
  modelFromId,
  type ParsedModelId,
  parseModelId,
} from "./model-id.js";
export {
  type ModelEntry,
  ModelRegistry,
  type ModelRegistryOptions,
  type ResolvedLlm,
} from "./model-registry.js";
export { type ModelPrice, PriceTable } from "./price-table.js";
export { UsageLedger, type UsageRecord } from "./usage-ledger.js";
