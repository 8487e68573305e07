import type { LlmUsage, ToolLoopEvent } from "../loop/tool-loop.js";
import type { ToolResult } from "../tool/tool-result.js";

/** One tool call the model asked for, with what the tool returned. */
export interface GeneratedToolCall {
  /** The model's id for the call. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments, as the JSON text the model wrote. */
  readonly input: string;
  /** What the tool returned; `undefined` when the loop stopped before running it. */
  readonly result: ToolResult | undefined;
}

/** One LLM call of a {@link GenerateResult}: what the model replied, and what it cost. */
export interface GenerateStep {
  /** The text of the reply (empty when it only called tools). */
  readonly text: string;
  /** The tools the reply called, in order, with their results. */
  readonly toolCalls: readonly GeneratedToolCall[];
  /** The model that answered (its id as the provider reports it). */
  readonly modelId: string;
  readonly usage: LlmUsage;
  /** US dollars, when the model's price is known. */
  readonly costUsd: number | undefined;
}

/**
 * What `PromptRunner.generate` returns: the answer with how it was reached,
 * like the AI SDK's `generateText` result.
 */
export interface GenerateResult {
  /** The final answer (the same text `generateText` returns). */
  readonly text: string;
  /** One step per LLM call, in order. */
  readonly steps: readonly GenerateStep[];
  /** Every tool call of every step, in order. */
  readonly toolCalls: readonly GeneratedToolCall[];
  /** Tokens of all steps together. */
  readonly usage: LlmUsage;
  /** US dollars for all steps, when every step's model has a known price; else `undefined`. */
  readonly costUsd: number | undefined;
}

type LlmCallEnd = Extract<ToolLoopEvent, { type: "llm-call-end" }>;
type ToolCallEnd = Extract<ToolLoopEvent, { type: "tool-call-end" }>;

/** Collects one interaction's `llm-call-end` and `tool-call-end` events, then builds its {@link GenerateResult}. */
export class GenerateResultCollector {
  private readonly calls: LlmCallEnd[] = [];
  private readonly results = new Map<string, ToolResult>();

  /** The event types the collector reads. */
  static readonly EVENT_TYPES: ReadonlySet<ToolLoopEvent["type"]> = new Set([
    "llm-call-end",
    "tool-call-end",
  ]);

  /** Takes one loop event (others are ignored). */
  readonly onEvent = (event: ToolLoopEvent): void => {
    if (event.type === "llm-call-end") this.calls.push(event);
    else if (event.type === "tool-call-end")
      this.results.set((event as ToolCallEnd).toolCallId, event.result);
  };

  /** The result for the final `text` and the loop's total `usage`. */
  result(text: string, usage: LlmUsage): GenerateResult {
    const steps = this.calls.map((call): GenerateStep => {
      const content = call.content ?? [];
      const toolCalls = content.flatMap((part) =>
        part.type === "tool-call"
          ? [
              {
                toolCallId: part.toolCallId,
                toolName: part.toolName,
                input: typeof part.input === "string" ? part.input : JSON.stringify(part.input),
                result: this.results.get(part.toolCallId),
              },
            ]
          : [],
      );
      return {
        text: content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(""),
        toolCalls,
        modelId: call.modelId,
        usage: call.usage,
        costUsd: call.costUsd,
      };
    });
    const costs = steps.map((step) => step.costUsd);
    return {
      text,
      steps,
      toolCalls: steps.flatMap((step) => step.toolCalls),
      usage,
      costUsd: costs.every((cost) => cost !== undefined)
        ? costs.reduce((sum: number, cost) => sum + (cost as number), 0)
        : undefined,
    };
  }
}
