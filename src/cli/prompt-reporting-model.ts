import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamResult,
} from "@ai-sdk/provider";
import { AgentProcess } from "../platform/agent-process.js";

/**
 * Wraps a model so that, inside an agent process whose verbosity asks for it,
 * the prompt of each interaction (`showPrompts`) and the model's text replies
 * (`showLlmResponses`) go to the process's output channel as log lines.
 * Subagents inherit verbosity, so their prompts show too.
 */
export function withPromptReporting(model: LanguageModelV3): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
      await reportPrompt(options.prompt);
      const result = await model.doGenerate(options);
      const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
      if (text.length > 0) await report("showLlmResponses", `LLM reply:\n${text}`);
      return result;
    },
    async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
      await reportPrompt(options.prompt);
      return model.doStream(options);
    },
  };
}

/** Shows the system and user messages once per interaction (the first call, before any assistant turn). */
async function reportPrompt(prompt: LanguageModelV3Prompt): Promise<void> {
  if (prompt.some((message) => message.role === "assistant")) return;
  const lines = prompt.flatMap((message) => {
    if (message.role === "system") return [`[system] ${message.content}`];
    if (message.role === "user") {
      return [
        `[user] ${message.content.map((part) => (part.type === "text" ? part.text : `<${part.type}>`)).join("")}`,
      ];
    }
    return [];
  });
  await report("showPrompts", `Prompt:\n${lines.join("\n")}`);
}

async function report(flag: "showPrompts" | "showLlmResponses", message: string): Promise<void> {
  const process = AgentProcess.current();
  if (!process?.processOptions.verbosity[flag]) return;
  try {
    await process.processOptions.outputChannel.send({
      type: "logging",
      processId: process.id,
      level: "info",
      message,
    });
  } catch {
    // Reporting must never fail the model call.
  }
}
