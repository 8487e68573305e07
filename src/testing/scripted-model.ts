import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3ToolResultPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { ScriptExhaustedError } from "../errors/script-exhausted-error.js";
import {
  argumentsText,
  defaultChunks,
  type ScriptedRequest,
  type ScriptedStep,
  type ScriptedStepInit,
  type ScriptedStepOptions,
  type ScriptedToolCall,
  textStep,
  toolCallStep,
  toolCallsStep,
} from "./scripted-step.js";

/** Options of a {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** @default "scripted" */
  readonly modelId?: string;
  /** @default "embabel-ts.scripted" */
  readonly provider?: string;
}

interface ResolvedToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
}

/**
 * A `LanguageModelV3` that replays a script of replies (text, tool calls, or
 * both) and records every request it received: the messages and the tools
 * offered. Use it to drive tool loops in tests and assert on what the model
 * was shown at each step.
 *
 * @example
 * const model = new ScriptedModel([
 *   ScriptedModel.toolCall("add", { a: 1, b: 2 }),
 *   ScriptedModel.text("3"),
 * ]);
 * // ... run a loop ...
 * expect(model.requests[0]?.toolNames).toEqual(["add"]);
 */
export class ScriptedModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  /** Every request received, in order. */
  readonly requests: ScriptedRequest[] = [];
  private readonly steps: ScriptedStepInit[];
  private consumed = 0;

  constructor(steps: readonly ScriptedStepInit[] = [], options: ScriptedModelOptions = {}) {
    this.steps = [...steps];
    this.modelId = options.modelId ?? "scripted";
    this.provider = options.provider ?? "embabel-ts.scripted";
  }

  /** A model replaying `steps` in order. */
  static of(...steps: ScriptedStepInit[]): ScriptedModel {
    return new ScriptedModel(steps);
  }

  /** A reply with text only. */
  static text(
    text: string,
    options?: ScriptedStepOptions & { textChunks?: readonly string[] },
  ): ScriptedStep {
    return textStep(text, options);
  }

  /** A reply calling one tool; `args` as an object (sent as JSON) or a raw string (sent verbatim). */
  static toolCall(
    name: string,
    args?: unknown,
    options?: ScriptedStepOptions & { id?: string; text?: string },
  ): ScriptedStep {
    return toolCallStep(name, args, options);
  }

  /** A reply calling several tools, in order. */
  static toolCalls(
    calls: readonly ScriptedToolCall[],
    options?: ScriptedStepOptions & { text?: string },
  ): ScriptedStep {
    return toolCallsStep(calls, options);
  }

  /** A reply that fails the request with `error` (a provider failure). */
  static error(error: unknown): ScriptedStep {
    return { error };
  }

  /** Appends steps to the script. */
  push(...steps: ScriptedStepInit[]): this {
    this.steps.push(...steps);
    return this;
  }

  /** How many scripted steps have not been consumed yet. */
  get remaining(): number {
    return this.steps.length - this.consumed;
  }

  /** The most recent request, if any. */
  get lastRequest(): ScriptedRequest | undefined {
    return this.requests[this.requests.length - 1];
  }

  /** The tool names offered at each request, in order (handy for one assertion over a whole run). */
  get toolNamesPerRequest(): string[][] {
    return this.requests.map((request) => [...request.toolNames]);
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { step, calls } = await this.next("generate", options);
    const content: LanguageModelV3Content[] = [];
    if (step.text) content.push({ type: "text", text: step.text });
    for (const call of calls) content.push({ type: "tool-call", ...call });
    return {
      content,
      finishReason: finishReason(calls.length > 0),
      usage: usageOf(step),
      warnings: [],
      response: { id: `scripted-${this.requests.length}`, modelId: this.modelId, timestamp: new Date(0) },
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { step, calls } = await this.next("stream", options);
    const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
    const chunks = step.textChunks ?? defaultChunks(step.text ?? "");
    if (chunks.length > 0) {
      parts.push({ type: "text-start", id: "text-1" });
      for (const delta of chunks) parts.push({ type: "text-delta", id: "text-1", delta });
      parts.push({ type: "text-end", id: "text-1" });
    }
    for (const call of calls) {
      parts.push({ type: "tool-input-start", id: call.toolCallId, toolName: call.toolName });
      parts.push({ type: "tool-input-delta", id: call.toolCallId, delta: call.input });
      parts.push({ type: "tool-input-end", id: call.toolCallId });
      parts.push({ type: "tool-call", ...call });
    }
    parts.push({ type: "finish", usage: usageOf(step), finishReason: finishReason(calls.length > 0) });
    return {
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  }

  private async next(
    mode: "generate" | "stream",
    options: LanguageModelV3CallOptions,
  ): Promise<{ step: ScriptedStep; calls: ResolvedToolCall[] }> {
    const request = recordRequest(this.requests.length, mode, options);
    this.requests.push(request);
    options.abortSignal?.throwIfAborted();
    const init = this.steps[this.consumed];
    if (init === undefined)
      throw new ScriptExhaustedError(request.index + 1, this.steps.length, request.toolNames);
    this.consumed += 1;
    const step = typeof init === "function" ? await init(request) : init;
    if (step.delayMs) await sleep(step.delayMs, options.abortSignal);
    if (step.error !== undefined) throw step.error;
    const calls = (step.toolCalls ?? []).map((call, index) => ({
      toolCallId: call.id ?? `call-${request.index + 1}-${index + 1}`,
      toolName: call.name,
      input: argumentsText(call.args),
    }));
    return { step, calls };
  }
}

function recordRequest(
  index: number,
  mode: "generate" | "stream",
  options: LanguageModelV3CallOptions,
): ScriptedRequest {
  const tools = (options.tools ?? []).filter(
    (tool): tool is LanguageModelV3FunctionTool => tool.type === "function",
  );
  const prompt: LanguageModelV3Prompt = [...options.prompt];
  return {
    index,
    mode,
    prompt,
    tools,
    toolNames: tools.map((tool) => tool.name),
    options,
    toolResults: lastToolResults(prompt),
  };
}

function lastToolResults(prompt: LanguageModelV3Prompt): LanguageModelV3ToolResultPart[] {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index];
    if (message?.role === "tool") {
      return message.content.filter(
        (part): part is LanguageModelV3ToolResultPart => part.type === "tool-result",
      );
    }
    if (message?.role === "user") return [];
  }
  return [];
}

function usageOf(step: ScriptedStep): LanguageModelV3Usage {
  const input = step.usage?.inputTokens ?? 0;
  const output = step.usage?.outputTokens ?? 0;
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function finishReason(hasToolCalls: boolean): LanguageModelV3GenerateResult["finishReason"] {
  return hasToolCalls ? { unified: "tool-calls", raw: "tool_calls" } : { unified: "stop", raw: "stop" };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    let forget: (() => void) | undefined;
    const timer = setTimeout(() => {
      forget?.();
      resolve();
    }, ms);
    if (signal) {
      forget = onAbort(signal, () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    }
  });
}

/** What runs when a signal aborts, per signal: one `abort` listener a signal, however many requests wait on it. */
const abortHandlers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `handler` when `signal` aborts; returns the function that forgets it.
 * A process passes one signal to all its calls: one listener on it is far
 * cheaper than adding and removing one per delayed reply.
 */
function onAbort(signal: AbortSignal, handler: () => void): () => void {
  let handlers = abortHandlers.get(signal);
  if (!handlers) {
    const waiting = new Set<() => void>();
    handlers = waiting;
    abortHandlers.set(signal, waiting);
    signal.addEventListener(
      "abort",
      () => {
        for (const waiter of [...waiting]) waiter();
        waiting.clear();
      },
      { once: true },
    );
  }
  const registered = handlers;
  registered.add(handler);
  return () => registered.delete(handler);
}
