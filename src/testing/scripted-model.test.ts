import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ScriptExhaustedError, ScriptedModel } from "./index.js";

function call(
  toolNames: string[] = [],
  prompt: LanguageModelV3CallOptions["prompt"] = [],
): LanguageModelV3CallOptions {
  return {
    prompt,
    tools: toolNames.map((name) => ({
      type: "function",
      name,
      inputSchema: { type: "object", properties: {} },
    })),
  };
}

async function readAll(
  stream: ReadableStream<LanguageModelV3StreamPart>,
): Promise<LanguageModelV3StreamPart[]> {
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream as unknown as AsyncIterable<LanguageModelV3StreamPart>) parts.push(part);
  return parts;
}

describe("ScriptedModel", () => {
  it("replays a text step as a text content part with stop", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("hello"));
    const result = await model.doGenerate(call());
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
    expect(result.finishReason.unified).toBe("stop");
  });

  it("replays a tool call with its arguments as JSON text and the given id", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("add", { a: 1, b: 2 }, { id: "c1" }));
    const result = await model.doGenerate(call(["add"]));
    expect(result.content).toEqual([
      { type: "tool-call", toolCallId: "c1", toolName: "add", input: '{"a":1,"b":2}' },
    ]);
    expect(result.finishReason.unified).toBe("tool-calls");
  });

  it("sends string arguments verbatim so tests can send malformed JSON", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("add", "{not json"));
    const result = await model.doGenerate(call());
    expect(result.content[0]).toMatchObject({ input: "{not json" });
  });

  it("replays several tool calls in one step, in order, with generated ids", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCalls([{ name: "a" }, { name: "b", args: { x: 1 } }]));
    const result = await model.doGenerate(call());
    expect(result.content).toEqual([
      { type: "tool-call", toolCallId: "call-1-1", toolName: "a", input: "{}" },
      { type: "tool-call", toolCallId: "call-1-2", toolName: "b", input: '{"x":1}' },
    ]);
  });

  it("reports the usage of each step", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("x", { usage: { inputTokens: 7, outputTokens: 3 } }));
    const { usage } = await model.doGenerate(call());
    expect(usage.inputTokens.total).toBe(7);
    expect(usage.outputTokens.total).toBe(3);
  });

  it("records the tools offered and a snapshot of the prompt of every request", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("1"), ScriptedModel.text("2"));
    const prompt: LanguageModelV3CallOptions["prompt"] = [{ role: "system", content: "s" }];
    await model.doGenerate(call(["a", "b"], prompt));
    prompt.push({ role: "user", content: [{ type: "text", text: "later" }] });
    await model.doGenerate(call(["c"], prompt));
    expect(model.toolNamesPerRequest).toEqual([["a", "b"], ["c"]]);
    expect(model.requests[0]?.prompt).toHaveLength(1);
    expect(model.requests[1]?.prompt).toHaveLength(2);
    expect(model.requests[1]?.tools[0]?.inputSchema).toEqual({ type: "object", properties: {} });
  });

  it("exposes the tool results the model is being told about", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    await model.doGenerate(
      call(
        [],
        [
          {
            role: "tool",
            content: [
              { type: "tool-result", toolCallId: "c1", toolName: "t", output: { type: "text", value: "r" } },
            ],
          },
        ],
      ),
    );
    expect(model.lastRequest?.toolResults.map((part) => part.output)).toEqual([{ type: "text", value: "r" }]);
  });

  it("throws a ScriptExhaustedError naming the request when the script is empty", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("only"));
    await model.doGenerate(call());
    const error = await model.doGenerate(call(["lookup"])).catch((caught: unknown) => caught);
    expect(ScriptExhaustedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("request #2");
    expect((error as Error).message).toContain("[lookup]");
  });

  it("computes a step from the request when the step is a function", async () => {
    const model = ScriptedModel.of((request) => ScriptedModel.text(`saw ${request.toolNames.join("+")}`));
    const result = await model.doGenerate(call(["a", "b"]));
    expect(result.content).toEqual([{ type: "text", text: "saw a+b" }]);
  });

  it("rejects with the scripted error of an error step", async () => {
    const model = ScriptedModel.of(ScriptedModel.error(new Error("provider down")));
    await expect(model.doGenerate(call())).rejects.toThrow("provider down");
  });

  it("rejects a delayed step when the request is aborted", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("late", { delayMs: 5_000 }));
    const controller = new AbortController();
    const pending = model.doGenerate({ ...call(), abortSignal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });

  it("rejects every delayed step waiting on one signal when it aborts, and only those", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.text("first", { delayMs: 1 }),
      ScriptedModel.text("a", { delayMs: 5_000 }),
      ScriptedModel.text("b", { delayMs: 5_000 }),
      ScriptedModel.text("other", { delayMs: 20 }),
    );
    const controller = new AbortController();
    const other = new AbortController();
    const first = await model.doGenerate({ ...call(), abortSignal: controller.signal });
    expect(first.content).toEqual([{ type: "text", text: "first" }]);
    const a = model.doGenerate({ ...call(), abortSignal: controller.signal });
    const b = model.doGenerate({ ...call(), abortSignal: controller.signal });
    const unrelated = model.doGenerate({ ...call(), abortSignal: other.signal });
    controller.abort(new Error("stop all"));
    await expect(a).rejects.toThrow("stop all");
    await expect(b).rejects.toThrow("stop all");
    expect((await unrelated).content).toEqual([{ type: "text", text: "other" }]);
  });

  it("rejects at once a request whose signal is already aborted", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("never", { delayMs: 5_000 }));
    await expect(
      model.doGenerate({ ...call(), abortSignal: AbortSignal.abort(new Error("too late")) }),
    ).rejects.toThrow("too late");
  });

  it("tracks the remaining steps and accepts more with push", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("1"));
    model.push(ScriptedModel.text("2"));
    expect(model.remaining).toBe(2);
    await model.doGenerate(call());
    expect(model.remaining).toBe(1);
  });

  it("streams text deltas and tool calls, then a finish part with usage", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall(
        "add",
        { a: 1 },
        { id: "c1", text: "let me add", usage: { inputTokens: 2, outputTokens: 1 } },
      ),
    );
    const { stream } = await model.doStream(call(["add"]));
    const parts = await readAll(stream);
    const deltas = parts.flatMap((part) => (part.type === "text-delta" ? [part.delta] : []));
    expect(deltas.join("")).toBe("let me add");
    expect(parts.find((part) => part.type === "tool-call")).toMatchObject({
      toolName: "add",
      input: '{"a":1}',
    });
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "tool-calls" } });
    expect(model.lastRequest?.mode).toBe("stream");
  });
});
