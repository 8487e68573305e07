import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from "@ai-sdk/provider";
import type { OutputChannel } from "./output-channel.js";
import type { Verbosity } from "./verbosity.js";

/** Where a reporting model sends its log lines: the process's id, verbosity and output channel. */
export interface PromptReportingTarget {
  readonly id: string;
  readonly verbosity: Verbosity;
  readonly outputChannel: OutputChannel;
}

/**
 * Wraps the model of one interaction so that the prompt (`showPrompts`:
 * system and user messages, once, at the first call) and each text reply
 * (`showLlmResponses`, streamed ones when the stream ends) go to the
 * process's output channel as `logging` events at level `info`. Reporting
 * never fails the call.
 */
export function withPromptReporting(model: LanguageModelV3, target: PromptReportingTarget): LanguageModelV3 {
  const { showPrompts, showLlmResponses } = target.verbosity;
  if (!showPrompts && !showLlmResponses) return model;
  let first = true;
  const promptShown = async (prompt: LanguageModelV3Prompt): Promise<void> => {
    if (!first || !showPrompts) return;
    first = false;
    await report(target, `Prompt:\n${promptLines(prompt)}`);
  };
  return {
    specificationVersion: "v3",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
      await promptShown(options.prompt);
      const result = await model.doGenerate(options);
      const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
      if (showLlmResponses && text.length > 0) await report(target, `LLM reply:\n${text}`);
      return result;
    },
    async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
      await promptShown(options.prompt);
      const result = await model.doStream(options);
      if (!showLlmResponses) return result;
      let text = "";
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            if (part.type === "text-delta") text += part.delta;
            controller.enqueue(part);
          },
          async flush() {
            if (text.length > 0) await report(target, `LLM reply:\n${text}`);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

function promptLines(prompt: LanguageModelV3Prompt): string {
  return prompt
    .flatMap((message) => {
      if (message.role === "system") return [`[system] ${message.content}`];
      if (message.role === "user") {
        const text = message.content
          .map((part) => (part.type === "text" ? part.text : `<${part.type}>`))
          .join("");
        return [`[user] ${text}`];
      }
      return [];
    })
    .join("\n");
}

async function report(target: PromptReportingTarget, message: string): Promise<void> {
  try {
    await target.outputChannel.send({ type: "logging", processId: target.id, level: "info", message });
  } catch {
    // Reporting must never fail the model call.
  }
}
