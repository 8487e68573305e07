import type {
  LanguageModelV3Content,
  LanguageModelV3Message,
  LanguageModelV3ToolCall,
  LanguageModelV3ToolResult,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import { nestedTooDeeply } from "./argument-depth.js";
import type { ToolCallOutcome } from "./execute-tool-call.js";

type AssistantPart = Extract<LanguageModelV3Message, { role: "assistant" }>["content"][number];

/** The tool calls the loop must execute (provider-executed calls are the provider's business). */
export function toolCallsOf(content: readonly LanguageModelV3Content[]): LanguageModelV3ToolCall[] {
  const calls: LanguageModelV3ToolCall[] = [];
  for (const part of content) if (part.type === "tool-call" && !part.providerExecuted) calls.push(part);
  return calls;
}

/** The text of a response: its text parts, concatenated. */
export function textOf(content: readonly LanguageModelV3Content[]): string {
  let text = "";
  for (const part of content) if (part.type === "text") text += part.text;
  return text;
}

/**
 * The assistant message for a response. Tool-call inputs come from the
 * outcomes (parsed once, when executed); reasoning keeps its provider metadata
 * so signed thinking survives across steps; the results of provider-executed
 * tools stay next to their calls (providers reject a server tool call without
 * its result); empty text parts are dropped (some providers reject them).
 */
export function assistantMessage(
  content: readonly LanguageModelV3Content[],
  outcomes: readonly ToolCallOutcome[] = [],
): LanguageModelV3Message {
  const parts: AssistantPart[] = [];
  for (const part of content) {
    switch (part.type) {
      case "text":
        if (part.text.length === 0) break;
        parts.push({
          type: "text",
          text: part.text,
          ...(part.providerMetadata ? { providerOptions: part.providerMetadata } : {}),
        });
        break;
      case "reasoning":
        parts.push({
          type: "reasoning",
          text: part.text,
          ...(part.providerMetadata ? { providerOptions: part.providerMetadata } : {}),
        });
        break;
      case "file":
        parts.push({ type: "file", data: part.data, mediaType: part.mediaType });
        break;
      case "tool-call": {
        const outcome = outcomes.find((candidate) => candidate.call === part);
        parts.push({
          type: "tool-call",
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: outcome ? outcome.value : safeParse(part.input),
          ...(part.providerExecuted ? { providerExecuted: true } : {}),
          ...(part.providerMetadata ? { providerOptions: part.providerMetadata } : {}),
        });
        break;
      }
      case "tool-result":
        if (!part.preliminary) parts.push(providerToolResult(part));
        break;
      default:
        break;
    }
  }
  return { role: "assistant", content: parts };
}

/** A provider-executed tool's result as a prompt part (the AI SDK's mapping: strings as text, errors as error output). */
function providerToolResult(part: LanguageModelV3ToolResult): LanguageModelV3ToolResultPart {
  const { result } = part;
  let output: LanguageModelV3ToolResultOutput;
  if (typeof result === "string") output = { type: part.isError ? "error-text" : "text", value: result };
  else output = { type: part.isError ? "error-json" : "json", value: result };
  return {
    type: "tool-result",
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output,
    ...(part.providerMetadata ? { providerOptions: part.providerMetadata } : {}),
  };
}

/** The tool message carrying the outcomes, in call order. */
export function toolMessage(outcomes: readonly ToolCallOutcome[]): LanguageModelV3Message {
  return {
    role: "tool",
    content: outcomes.map(
      (outcome): LanguageModelV3ToolResultPart => ({
        type: "tool-result",
        toolCallId: outcome.call.toolCallId,
        toolName: outcome.call.toolName,
        output: outcome.output,
      }),
    ),
  };
}

function safeParse(input: string): unknown {
  if (nestedTooDeeply(input)) return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** The short user message a loop sends, once, after an empty reply (no text, no tool calls). */
export const EMPTY_REPLY_NUDGE =
  "Your last reply was empty. Please answer, or call one of the available tools.";

/** The nudge as a prompt message. */
export function emptyReplyNudge(): LanguageModelV3Message {
  return { role: "user", content: [{ type: "text", text: EMPTY_REPLY_NUDGE }] };
}
