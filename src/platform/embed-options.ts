import type { SharedV3ProviderOptions } from "@ai-sdk/provider";
import type { EmbeddingModelChoice } from "../llm/embedding-model-registry.js";

/** Options of `OperationContext.embed`. */
export interface EmbedOptions extends EmbeddingModelChoice {
  /** Aborts the call (the process's own signal always applies). */
  readonly signal?: AbortSignal;
  /** Passed through to the provider. */
  readonly providerOptions?: SharedV3ProviderOptions;
}
