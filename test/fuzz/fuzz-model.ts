import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";

/** One part of a generated model reply. */
export type FuzzPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "reasoning"; readonly text: string }
  /** A call the loop must execute; `input` is the raw argument text, sent verbatim. */
  | { readonly type: "call"; readonly id: string; readonly name: string; readonly input: string }
  /** A call the provider ran itself, with its result unless `result` is absent. */
  | {
      readonly type: "provider-call";
      readonly id: string;
      readonly name: string;
      readonly input: string;
      readonly result?: string;
    };

/** One generated model reply. */
export interface FuzzReply {
  readonly parts: readonly FuzzPart[];
  /** Token counts; absent means the provider reported none. */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
}

/** What the model received at one call. */
export interface FuzzRequest {
  readonly prompt: LanguageModelV3Prompt;
  readonly toolNames: readonly string[];
  /** The request as a provider would put it on the wire (prompt and tools as JSON). */
  readonly wire: string;
}

/** The reply given once the script is spent: a plain answer, so every run ends. */
export const FINAL_ANSWER = "All done.";

/**
 * A `LanguageModelV3` that replays generated replies, answering {@link FINAL_ANSWER}
 * once they are spent. Like a real provider it serialises every request it is sent
 * (a prompt that cannot be turned into JSON fails the call, as it would on the wire),
 * and it keeps the serialised form so a property can look at exactly what was sent.
 */
export class FuzzModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "fuzz";
  readonly modelId = "fuzz-model";
  readonly supportedUrls = {};
  readonly requests: FuzzRequest[] = [];

  constructor(private readonly replies: readonly FuzzReply[]) {}

  /** The reply given at call `index` (0-based). */
  replyAt(index: number): FuzzReply {
    return this.replies[index] ?? { parts: [{ type: "text", text: FINAL_ANSWER }] };
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const reply = this.receive(options);
    const content = contentOf(reply);
    return {
      content,
      finishReason: finishReason(content),
      usage: usageOf(reply),
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const reply = this.receive(options);
    const content = contentOf(reply);
    const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
    content.forEach((part, index) => {
      if (part.type === "text" || part.type === "reasoning") {
        const id = `${part.type}-${index}`;
        const kind = part.type;
        parts.push({ type: `${kind}-start`, id });
        // Split the text in two deltas, so the loop has to join them.
        const half = Math.floor(part.text.length / 2);
        for (const delta of [part.text.slice(0, half), part.text.slice(half)])
          parts.push({ type: `${kind}-delta`, id, delta });
        parts.push({ type: `${kind}-end`, id });
      } else {
        parts.push(part as LanguageModelV3StreamPart);
      }
    });
    parts.push({ type: "finish", usage: usageOf(reply), finishReason: finishReason(content) });
    return {
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  }

  private receive(options: LanguageModelV3CallOptions): FuzzReply {
    options.abortSignal?.throwIfAborted();
    // JSON.stringify throws on what no provider could send (a cycle, a value nested too deeply).
    const wire = JSON.stringify({ prompt: options.prompt, tools: options.tools ?? [] });
    const toolNames = (options.tools ?? []).map((tool) => tool.name);
    this.requests.push({ prompt: [...options.prompt], toolNames, wire });
    return this.replyAt(this.requests.length - 1);
  }
}

function contentOf(reply: FuzzReply): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  for (const part of reply.parts) {
    switch (part.type) {
      case "text":
      case "reasoning":
        content.push({ type: part.type, text: part.text });
        break;
      case "call":
        content.push({ type: "tool-call", toolCallId: part.id, toolName: part.name, input: part.input });
        break;
      case "provider-call":
        content.push({
          type: "tool-call",
          toolCallId: part.id,
          toolName: part.name,
          input: part.input,
          providerExecuted: true,
        });
        if (part.result !== undefined)
          content.push({
            type: "tool-result",
            toolCallId: part.id,
            toolName: part.name,
            result: part.result,
          });
        break;
    }
  }
  return content;
}

function finishReason(
  content: readonly LanguageModelV3Content[],
): LanguageModelV3GenerateResult["finishReason"] {
  return content.some((part) => part.type === "tool-call")
    ? { unified: "tool-calls", raw: undefined }
    : { unified: "stop", raw: undefined };
}

function usageOf(reply: FuzzReply): LanguageModelV3Usage {
  const input = reply.usage?.inputTokens;
  const output = reply.usage?.outputTokens;
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}
