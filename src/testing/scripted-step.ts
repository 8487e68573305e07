import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";

/** Token counts a scripted step reports. */
export interface ScriptedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** One tool call inside a scripted step. */
export interface ScriptedToolCall {
  /** The tool name the model "calls" (may be wrong on purpose). */
  readonly name: string;
  /** Arguments: an object is sent as JSON; a string is sent verbatim (so tests can send malformed JSON). */
  readonly args?: unknown;
  /** The tool call id. @default "call-<request>-<index>" */
  readonly id?: string;
}

/** One reply of a {@link ScriptedModel}: text, tool calls, or both, with usage. */
export interface ScriptedStep {
  /** Text of the reply. @default "" */
  readonly text?: string;
  /** Tool calls of the reply, in order. @default [] */
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Usage reported for this reply. @default { inputTokens: 0, outputTokens: 0 } */
  readonly usage?: ScriptedUsage;
  /** Wait this long before answering (honours the request's abort signal). @default 0 */
  readonly delayMs?: number;
  /** Reject the request with this error instead of answering (a provider failure). */
  readonly error?: unknown;
  /** Text chunks for streaming; their concatenation should equal `text`. @default the text split after each space */
  readonly textChunks?: readonly string[];
}

/** What a {@link ScriptedModel} recorded about one request. */
export interface ScriptedRequest {
  /** 0-based position of the request. */
  readonly index: number;
  /** Whether the request came through `doGenerate` or `doStream`. */
  readonly mode: "generate" | "stream";
  /** A snapshot of the messages sent (later mutation by the caller does not show). */
  readonly prompt: LanguageModelV3Prompt;
  /** The function tool definitions offered, in order. */
  readonly tools: readonly LanguageModelV3FunctionTool[];
  /** The names of the tools offered, in order. */
  readonly toolNames: readonly string[];
  /** The full call options as received. */
  readonly options: LanguageModelV3CallOptions;
  /** The tool-result parts of the last `tool` message of the prompt (what the model is being told). */
  readonly toolResults: readonly LanguageModelV3ToolResultPart[];
}

/** A step, or a function computing the step from the request (for replies that depend on what was offered). */
export type ScriptedStepInit =
  | ScriptedStep
  | ((request: ScriptedRequest) => ScriptedStep | Promise<ScriptedStep>);

/** Options shared by the step helpers. */
export interface ScriptedStepOptions {
  /** Usage reported for the step. @default { inputTokens: 0, outputTokens: 0 } */
  readonly usage?: ScriptedUsage;
  /** Wait this long before answering. @default 0 */
  readonly delayMs?: number;
}

/** A reply with text only. */
export function textStep(
  text: string,
  options: ScriptedStepOptions & { textChunks?: readonly string[] } = {},
): ScriptedStep {
  return { ...options, text };
}

/** A reply with one tool call. */
export function toolCallStep(
  name: string,
  args: unknown = {},
  options: ScriptedStepOptions & { id?: string; text?: string } = {},
): ScriptedStep {
  const { id, text, ...rest } = options;
  return {
    ...rest,
    ...(text === undefined ? {} : { text }),
    toolCalls: [{ name, args, ...(id === undefined ? {} : { id }) }],
  };
}

/** A reply with several tool calls, in order. */
export function toolCallsStep(
  calls: readonly ScriptedToolCall[],
  options: ScriptedStepOptions & { text?: string } = {},
): ScriptedStep {
  return { ...options, toolCalls: calls };
}

/** Serialises scripted arguments: strings verbatim, anything else as JSON. */
export function argumentsText(args: unknown): string {
  if (args === undefined) return "{}";
  return typeof args === "string" ? args : JSON.stringify(args);
}

/** Splits text into streaming chunks, one per word with its trailing space. */
export function defaultChunks(text: string): string[] {
  return text.length === 0 ? [] : (text.match(/\S*\s*/g) ?? [text]).filter((chunk) => chunk.length > 0);
}
