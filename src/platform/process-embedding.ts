import { ConfigurationError } from "../errors/configuration-error.js";
import { embedValues } from "../llm/embed-values.js";
import { endSpan } from "../loop/loop-telemetry.js";
import type { AgentProcess } from "./agent-process.js";
import type { EmbedOptions } from "./embed-options.js";
import { startEmbeddingSpan } from "./process-telemetry.js";

/**
 * Embeds `texts` with the platform's embedding model (by name or role) on
 * behalf of `process`: the process's budget is checked first, its signal
 * aborts the call, and the call's tokens, cost and model are recorded on it.
 * Resolves to one vector per text, in order.
 */
export async function embedInProcess(
  process: AgentProcess,
  texts: readonly string[],
  options: EmbedOptions = {},
): Promise<number[][]> {
  const platform = process.platform;
  if (!platform) {
    throw new ConfigurationError(
      "OperationContext.embed() needs a platform: run the agent with platform.runAgent or platform.runInProcess.",
    );
  }
  const { model, name } = platform.embeddingModels.resolve(options);
  if (texts.length === 0) return [];
  process.signal.throwIfAborted();
  process.checkLlmBudget();
  const signal = options.signal ? AbortSignal.any([process.signal, options.signal]) : process.signal;
  const startedAt = performance.now();
  const span = startEmbeddingSpan(process, model.modelId, model.provider, texts.length);
  let result: Awaited<ReturnType<typeof embedValues>>;
  try {
    result = await embedValues(model, texts, {
      signal,
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    });
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
  const { embeddings, tokens } = result;
  endSpan(span, undefined, { "gen_ai.usage.input_tokens": tokens });
  process.recordEmbeddingCall({
    modelName: name,
    provider: model.provider,
    modelId: model.modelId,
    inputs: texts.length,
    tokens,
    costUsd: platform.models.prices.costOf(
      { inputTokens: tokens, outputTokens: 0, totalTokens: tokens },
      model.modelId,
    ),
    durationMs: Math.round(performance.now() - startedAt),
  });
  return embeddings;
}
