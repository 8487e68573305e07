import type { LanguageModelV3, LanguageModelV3Message } from "@ai-sdk/provider";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { Logger } from "../tool/logger.js";

/** How a server's `sampling/createMessage` is answered: the model the platform maps `role` to. */
export interface McpSamplingModel {
  /** The role whose model answers. */
  readonly role: string;
  /** Finds the model of a role (the platform's model registry). */
  readonly model: (role: string) => Promise<{ readonly model: LanguageModelV3; readonly name: string }>;
}

/** Answers one sampling request with `sampling`'s model: text in, text out (images and audio are described, not sent). */
export async function answerSampling(
  params: CreateMessageRequestParams,
  sampling: McpSamplingModel,
  context: { readonly server: string; readonly signal: AbortSignal },
): Promise<CreateMessageResult> {
  const { model, name } = await sampling.model(sampling.role);
  const prompt: LanguageModelV3Message[] = [];
  if (params.systemPrompt) prompt.push({ role: "system", content: params.systemPrompt });
  for (const message of params.messages) prompt.push(messageOf(message));
  Logger.current().debug(
    `MCP server '${context.server}' asks model '${name}' (role ${sampling.role}) to sample`,
    {
      server: context.server,
    },
  );
  const result = await model.doGenerate({
    prompt,
    maxOutputTokens: params.maxTokens,
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
    abortSignal: context.signal,
  });
  const text = result.content
    .filter((part): part is { type: "text"; text: string } => part.type === "text")
    .map((part) => part.text)
    .join("");
  const reason = result.finishReason.unified;
  return {
    role: "assistant",
    content: { type: "text", text },
    model: name,
    stopReason: reason === "stop" ? "endTurn" : reason === "length" ? "maxTokens" : reason,
  };
}

function messageOf(message: SamplingMessage): LanguageModelV3Message {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const text = blocks
    .map((block) => (block.type === "text" ? block.text : `[${block.type} content omitted]`))
    .join("\n");
  return message.role === "user"
    ? { role: "user", content: [{ type: "text", text }] }
    : { role: "assistant", content: [{ type: "text", text }] };
}
