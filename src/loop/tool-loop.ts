// CONTRACT FILE — the loop helper replaces the body of runToolLoop and may
// extend these types (adding optional fields only), keeping the names.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { BlackboardUpdater } from "../errors/replan-requested.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolResult } from "../tool/tool-result.js";
import type { ToolInjectionStrategy } from "./tool-injection-strategy.js";

/** Token counts of one or more LLM calls. */
export interface LlmUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/** Sampling settings passed through to the model. */
export interface LlmCallSettings {
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly seed?: number;
  readonly stopSequences?: readonly string[];
  readonly providerOptions?: LanguageModelV3CallOptions["providerOptions"];
}

/** Everything the loop reports while it runs (for tracing, stats, budgets, tests). */
export type ToolLoopEvent =
  | {
      readonly type: "llm-call-start";
      readonly loopId: string;
      readonly iteration: number;
      readonly toolNames: readonly string[];
    }
  | {
      readonly type: "llm-call-end";
      readonly loopId: string;
      readonly iteration: number;
      readonly modelId: string;
      readonly provider: string;
      readonly usage: LlmUsage;
      readonly durationMs: number;
    }
  | {
      readonly type: "tool-call-start";
      readonly loopId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: string;
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

/** Input of {@link runToolLoop}. */
export interface ToolLoopOptions {
  readonly model: LanguageModelV3;
  /** The conversation so far; system message first. */
  readonly prompt: LanguageModelV3Prompt;
  readonly tools: readonly Tool[];
  /** @default ToolInjectionStrategy.DEFAULT (unfolding support) */
  readonly injectionStrategy?: ToolInjectionStrategy;
  /** Passed to every tool call; the loop adds a fresh loop id. @default ToolCallContext.EMPTY */
  readonly context?: ToolCallContext;
  /** @default 20 */
  readonly maxIterations?: number;
  readonly signal?: AbortSignal;
  readonly settings?: LlmCallSettings;
  /** Structured output request passed to the model. */
  readonly responseFormat?: LanguageModelV3CallOptions["responseFormat"];
  /** Applied to every tool the loop offers, initial and injected. */
  readonly toolDecorator?: (tool: Tool) => Tool;
  /** Receives every event; must not throw. */
  readonly onEvent?: (event: ToolLoopEvent) => void;
  /** Called before every LLM call; throwing ends the loop with that error (budgets). */
  readonly beforeLlmCall?: (state: { readonly iteration: number; readonly usage: LlmUsage }) => void;
  /** When set, text is streamed through `doStream` and each delta passed here. */
  readonly onTextDelta?: (delta: string) => void;
}

/** Output of {@link runToolLoop}. */
export interface ToolLoopResult {
  /** The final answer (or a returnDirect tool's content; "" on replan). */
  readonly text: string;
  /** The whole conversation, including tool calls and results. */
  readonly prompt: LanguageModelV3Prompt;
  readonly iterations: number;
  readonly usage: LlmUsage;
  readonly loopId: string;
  /** The tools offered at the end. */
  readonly tools: readonly Tool[];
  readonly injectedTools: readonly Tool[];
  readonly removedTools: readonly Tool[];
  /** True when a returnDirect tool's result is the answer. */
  readonly returnedDirect: boolean;
  /** Set when a tool asked the agent process to replan. */
  readonly replan?: { readonly reason: string; readonly blackboardUpdater: BlackboardUpdater };
}

/** Runs the tool loop to a text answer, a returnDirect result, a replan, or the iteration limit. */
export async function runToolLoop(_options: ToolLoopOptions): Promise<ToolLoopResult> {
  throw new Error("runToolLoop: not implemented yet");
}
