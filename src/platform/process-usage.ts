import type { LlmUsage } from "../loop/tool-loop.js";
import type { LlmInteractionCall } from "../prompt/llm-interaction-host.js";

/** A model the process called. */
export interface ModelUsed {
  /** The platform's name for the model. */
  readonly name: string;
  /** The AI SDK provider id (`openai.chat`, …). */
  readonly provider: string;
  /** The provider's model id (`gpt-4.1`, …). */
  readonly modelId: string;
  /** Whether it is a language model or an embedding model. */
  readonly kind: "llm" | "embedding";
}

/** One finished embedding call, as recorded on a process. */
export interface EmbeddingCall {
  /** The platform's name for the embedding model. */
  readonly modelName: string;
  /** The AI SDK provider id (`openai.embedding`, …). */
  readonly provider: string;
  /** The provider's model id (`text-embedding-3-small`, …). */
  readonly modelId: string;
  /** How many texts were embedded. */
  readonly inputs: number;
  /** Input tokens the provider reported (0 when it reported none). */
  readonly tokens: number;
  /** Cost in US dollars; `undefined` when the model's price is unknown. */
  readonly costUsd: number | undefined;
  readonly durationMs: number;
}

/** The counts a checkpoint keeps of a process's usage. */
export interface UsageCounts {
  readonly usage: LlmUsage;
  readonly costUsd: number;
  readonly llmInvocations: number;
  readonly llmRetries?: number;
  readonly embeddingInvocations: number;
  readonly modelsUsed: readonly ModelUsed[];
}

/**
 * What one process's model calls used: tokens, dollars, call and retry
 * counts, and the models called. The process adds a child's calls to each
 * ancestor's usage as well.
 */
export class ProcessUsage {
  private tokens: LlmUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  private cost = 0;
  private llmCalls = 0;
  private retries = 0;
  private embeddingCalls = 0;
  /** Every model used, by key; created when a second model is used (most processes call one: see `lastModel`). */
  private models: Map<string, ModelUsed> | undefined;
  /** The model of the latest call (the only one while `models` is undefined), so repeated calls of one model skip the map. */
  private lastModel: ModelUsed | undefined;

  /** Usage continuing from a checkpoint's counts. */
  static restored(counts: UsageCounts): ProcessUsage {
    const restored = new ProcessUsage();
    restored.tokens = counts.usage;
    restored.cost = counts.costUsd;
    restored.llmCalls = counts.llmInvocations;
    restored.retries = counts.llmRetries ?? 0;
    restored.embeddingCalls = counts.embeddingInvocations;
    restored.models = new Map(
      counts.modelsUsed.map((model) => [modelKey(model.kind, model.provider, model.modelId), model]),
    );
    return restored;
  }

  /** Tokens of every LLM and embedding call (embedding tokens count as input). */
  get usage(): LlmUsage {
    return this.tokens;
  }
  /** Cost in US dollars of every call with a known price. */
  get costUsd(): number {
    return this.cost;
  }
  /** How many LLM calls were made. */
  get llmInvocations(): number {
    return this.llmCalls;
  }
  /** How many LLM calls were retried after a retryable failure. */
  get llmRetries(): number {
    return this.retries;
  }
  /** How many embedding calls were made. */
  get embeddingInvocations(): number {
    return this.embeddingCalls;
  }
  /** The models called (language and embedding), in order of first use. */
  get modelsUsed(): ModelUsed[] {
    if (this.models) return [...this.models.values()];
    return this.lastModel ? [this.lastModel] : [];
  }

  /** Counts one finished LLM call: its tokens, cost and model. */
  addLlmCall(call: LlmInteractionCall): void {
    const usage = this.tokens;
    this.tokens = {
      inputTokens: usage.inputTokens + call.usage.inputTokens,
      outputTokens: usage.outputTokens + call.usage.outputTokens,
      totalTokens: usage.totalTokens + call.usage.totalTokens,
    };
    this.cost += call.costUsd ?? 0;
    this.llmCalls++;
    this.noteModel("llm", call.modelName, call.provider, call.modelId);
  }

  /** Counts one retried LLM call. */
  addRetry(): void {
    this.retries++;
  }

  /** Counts one finished embedding call: its tokens (as input), cost and model. */
  addEmbeddingCall(call: EmbeddingCall): void {
    const usage = this.tokens;
    this.tokens = {
      inputTokens: usage.inputTokens + call.tokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.totalTokens + call.tokens,
    };
    this.cost += call.costUsd ?? 0;
    this.embeddingCalls++;
    this.noteModel("embedding", call.modelName, call.provider, call.modelId);
  }

  private noteModel(kind: ModelUsed["kind"], name: string, provider: string, modelId: string): void {
    const last = this.lastModel;
    if (last !== undefined && last.kind === kind && last.modelId === modelId && last.provider === provider)
      return;
    if (last === undefined && this.models === undefined) {
      this.lastModel = { name, provider, modelId, kind };
      return;
    }
    if (this.models === undefined) {
      // A second model: from now on every model is kept in the map, in order of first use.
      this.models = new Map();
      if (last) this.models.set(modelKey(last.kind, last.provider, last.modelId), last);
    }
    const key = modelKey(kind, provider, modelId);
    let model = this.models.get(key);
    if (!model) {
      model = { name, provider, modelId, kind };
      this.models.set(key, model);
    }
    this.lastModel = model;
  }
}

function modelKey(kind: ModelUsed["kind"], provider: string, modelId: string): string {
  return `${kind}\u0000${provider}\u0000${modelId}`;
}
