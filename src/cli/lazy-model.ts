import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamResult,
} from "@ai-sdk/provider";
import { type ModelIdOptions, modelFromId, parseModelId } from "../llm/model-id.js";

/**
 * A model given by id that imports its provider on first use, so a config
 * file may list models whose keys are only needed if a role or an action
 * actually uses them. A missing package or key fails that first call, by name.
 */
export function lazyModel(id: string, options: ModelIdOptions = {}): LanguageModelV3 {
  const parsed = parseModelId(id);
  let loading: Promise<LanguageModelV3> | undefined;
  const load = () => {
    loading ??= modelFromId(id, options);
    return loading;
  };
  return {
    specificationVersion: "v3",
    provider: parsed.provider,
    modelId: parsed.modelId,
    supportedUrls: {},
    async doGenerate(callOptions: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
      return (await load()).doGenerate(callOptions);
    },
    async doStream(callOptions: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
      return (await load()).doStream(callOptions);
    },
  };
}
