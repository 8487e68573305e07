import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolCall,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";

/** One model response, whether generated or streamed. */
export interface ModelResponse {
  readonly content: readonly LanguageModelV3Content[];
  readonly usage: LanguageModelV3Usage | undefined;
}

/**
 * One LLM round: `doGenerate`, or `doStream` when `onTextDelta` is set (text
 * deltas are passed on as they arrive; tool calls and provider-executed tool
 * results are collected from the stream's `tool-call` and `tool-result` parts).
 */
export function callModel(
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
  onTextDelta?: (delta: string) => void,
): PromiseLike<ModelResponse> {
  // Not async: the provider's own promise is returned (its result has `content` and `usage`), adding no promise per call.
  if (!onTextDelta) return model.doGenerate(options);
  return Promise.resolve(model.doStream(options)).then(({ stream }) => readStream(stream, onTextDelta));
}

async function readStream(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  onTextDelta: (delta: string) => void,
): Promise<ModelResponse> {
  const content: LanguageModelV3Content[] = [];
  const texts = new Map<string, { type: "text"; text: string }>();
  const reasoning = new Map<string, { type: "reasoning"; text: string }>();
  let usage: LanguageModelV3Usage | undefined;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case "text-start":
        case "text-delta": {
          let text = texts.get(part.id);
          if (!text) {
            text = { type: "text", text: "" };
            texts.set(part.id, text);
            content.push(text);
          }
          if (part.type === "text-delta" && part.delta.length > 0) {
            text.text += part.delta;
            onTextDelta(part.delta);
          }
          break;
        }
        case "reasoning-start":
        case "reasoning-delta": {
          let entry = reasoning.get(part.id);
          if (!entry) {
            entry = { type: "reasoning", text: "" };
            reasoning.set(part.id, entry);
            content.push(entry);
          }
          if (part.type === "reasoning-delta") entry.text += part.delta;
          if (part.providerMetadata) Object.assign(entry, { providerMetadata: part.providerMetadata });
          break;
        }
        case "reasoning-end": {
          const entry = reasoning.get(part.id);
          if (entry && part.providerMetadata)
            Object.assign(entry, { providerMetadata: part.providerMetadata });
          break;
        }
        case "tool-call":
          content.push(part as LanguageModelV3ToolCall);
          break;
        case "tool-result":
          content.push(part);
          break;
        case "finish":
          usage = part.usage;
          break;
        case "error":
          throw part.error;
        default:
          break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  return { content: content.filter((part) => part.type !== "text" || part.text.length > 0), usage };
}
