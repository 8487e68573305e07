import type { LanguageModelV3Usage } from "@ai-sdk/provider";
import type { LlmUsage } from "./llm-usage.js";

/** No tokens. */
export const ZERO_USAGE: LlmUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

/** The token counts of one provider response (missing counts are 0). */
export function usageOf(usage: LanguageModelV3Usage | undefined): LlmUsage {
  const inputTokens = usage?.inputTokens?.total ?? 0;
  const outputTokens = usage?.outputTokens?.total ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

/** The sum of two usages. */
export function addUsage(left: LlmUsage, right: LlmUsage): LlmUsage {
  return {
    inputTokens: left.inputTokens + right.inputTokens,
    outputTokens: left.outputTokens + right.outputTokens,
    totalTokens: left.totalTokens + right.totalTokens,
  };
}
