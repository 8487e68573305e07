import type {
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import type { ToolResult } from "../tool/tool-result.js";
import type { LlmUsage } from "./llm-usage.js";

/** Everything the loop reports while it runs (for tracing, stats, budgets, tests). */
export type ToolLoopEvent =
  | {
      readonly type: "llm-call-start";
      readonly loopId: string;
      /** The interaction's name, when the caller gave one (`PromptRunner.withInteractionId`). */
      readonly interactionId?: string;
      readonly iteration: number;
      readonly toolNames: readonly string[];
      /** The messages sent (the conversation so far); a reference, never copied for the event. */
      readonly prompt?: LanguageModelV3Prompt;
      /** The tool definitions sent, in order; a reference, never copied for the event. */
      readonly tools?: readonly LanguageModelV3FunctionTool[];
    }
  | {
      readonly type: "llm-call-end";
      readonly loopId: string;
      /** The interaction's name, when the caller gave one (`PromptRunner.withInteractionId`). */
      readonly interactionId?: string;
      readonly iteration: number;
      readonly modelId: string;
      readonly provider: string;
      readonly usage: LlmUsage;
      readonly durationMs: number;
      /** What the model replied (text, tool calls); a reference, never copied for the event. */
      readonly content?: readonly LanguageModelV3Content[];
      /** Cost in US dollars, when the model's price is known (added by the prompt runner). */
      readonly costUsd?: number;
    }
  | {
      /** A model call failed with a retryable error (429, 5xx, a connection reset) and is tried again after `delayMs`. */
      readonly type: "llm-call-retry";
      readonly loopId: string;
      /** The interaction's name, when the caller gave one (`PromptRunner.withInteractionId`). */
      readonly interactionId?: string;
      /** The LLM call (round) being retried. */
      readonly iteration: number;
      /** The attempt about to be made: 2 for the first retry. */
      readonly attempt: number;
      /** Attempts allowed in all (`maxRetries + 1`). */
      readonly maxAttempts: number;
      /** The wait before the attempt: the provider's `retry-after`, else exponential backoff with jitter. */
      readonly delayMs: number;
      /** What failed, in a few words: the HTTP status (`429`), else the error's message, cut. */
      readonly reason: string;
      /** The HTTP status of the failed attempt, when there was a response. */
      readonly statusCode?: number;
      /** The provider's error message. */
      readonly message: string;
    }
  | {
      readonly type: "tool-call-start";
      readonly loopId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: string;
      /** The call this one runs inside (a code-mode program's inner call, under the code call), when there is one. */
      readonly parentToolCallId?: string;
    }
  | {
      readonly type: "tool-call-end";
      readonly loopId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: string;
      readonly result: ToolResult;
      readonly durationMs: number;
    }
  | {
      readonly type: "tools-changed";
      readonly loopId: string;
      readonly added: readonly string[];
      readonly removed: readonly string[];
    };
