import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV2FinishReason,
  LanguageModelV2StreamPart,
  LanguageModelV2Usage,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";

function usageV3(usage: LanguageModelV2Usage): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: usage.inputTokens,
      noCache: undefined,
      cacheRead: usage.cachedInputTokens,
      cacheWrite: undefined,
    },
    outputTokens: { total: usage.outputTokens, text: undefined, reasoning: usage.reasoningTokens },
  };
}

function finishV3(reason: LanguageModelV2FinishReason): LanguageModelV3FinishReason {
  return { unified: reason === "unknown" ? "other" : reason, raw: reason };
}

// The V2 call options and prompt are a structural subset of V3's for what the
// loop sends (function tools, text/json/error tool results), so they pass as is.
function optionsV2(options: LanguageModelV3CallOptions): LanguageModelV2CallOptions {
  return options as unknown as LanguageModelV2CallOptions;
}

/**
 * A `LanguageModelV3` view of an AI SDK 5 (`LanguageModelV2`) model; V3 models
 * are returned unchanged. Usage and finish reasons are converted; everything
 * else the tool loop uses has the same shape in both versions.
 */
export function asLanguageModelV3(model: LanguageModelV2 | LanguageModelV3): LanguageModelV3 {
  if (model.specificationVersion === "v3") return model;
  return {
    specificationVersion: "v3",
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    async doGenerate(options) {
      const result = await model.doGenerate(optionsV2(options));
      return {
        content: result.content as LanguageModelV3GenerateResult["content"],
        usage: usageV3(result.usage),
        finishReason: finishV3(result.finishReason),
        warnings: result.warnings as unknown as LanguageModelV3GenerateResult["warnings"],
        ...(result.providerMetadata ? { providerMetadata: result.providerMetadata } : {}),
        ...(result.request ? { request: result.request } : {}),
        ...(result.response ? { response: result.response } : {}),
      };
    },
    async doStream(options) {
      const { stream, ...rest } = await model.doStream(optionsV2(options));
      const converted = stream.pipeThrough(
        new TransformStream<LanguageModelV2StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            if (part.type === "finish") {
              controller.enqueue({
                type: "finish",
                usage: usageV3(part.usage),
                finishReason: finishV3(part.finishReason),
                ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
              });
            } else {
              controller.enqueue(part as LanguageModelV3StreamPart);
            }
          },
        }),
      );
      return { ...rest, stream: converted };
    },
  };
}
