import type {
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { runToolLoop } from "./tool-loop.js";

// What the loop does with the less common shapes a provider's reply can take.

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

const usage: LanguageModelV3Usage = {
  inputTokens: { total: 4, noCache: 4, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function reply(content: LanguageModelV3Content[], replyUsage = usage): LanguageModelV3GenerateResult {
  const calls = content.some((part) => part.type === "tool-call");
  return {
    content,
    finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
    usage: replyUsage,
    warnings: [],
  };
}

/** A tool call the provider ran itself, with its result. */
function providerSearch(
  input: string,
  result: LanguageModelV3ToolResult["result"],
): LanguageModelV3Content[] {
  return [
    { type: "tool-call", toolCallId: "p1", toolName: "web_search", input, providerExecuted: true },
    { type: "tool-result", toolCallId: "p1", toolName: "web_search", result },
  ];
}

function echo(name: string, calls: string[] = []): Tool {
  return Tool.create(name, `The ${name} tool`, (input) => {
    calls.push(input);
    return ToolResult.text(`${name} done`);
  });
}

describe("model replies", () => {
  it("executes the tool calls of a reply that also has text, and keeps the text in the transcript", async () => {
    const calls: string[] = [];
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("lookup", {}, { id: "c1", text: "Let me check." }),
      ScriptedModel.text("Checked."),
    );
    const result = await runToolLoop({ model, prompt, tools: [echo("lookup", calls)] });
    expect(calls).toEqual(["{}"]);
    expect(result.text).toBe("Checked.");
    expect(model.requests[1]?.prompt[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Let me check." },
        { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: {} },
      ],
    });
  });

  it("drops an empty text part that came with tool calls from the transcript", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        reply([
          { type: "text", text: "" },
          { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: "{}" },
        ]),
        reply([{ type: "text", text: "done" }]),
      ],
    });
    await runToolLoop({ model, prompt, tools: [echo("lookup")] });
    expect(model.doGenerateCalls[1]?.prompt[1]).toEqual({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "c1", toolName: "lookup", input: {} }],
    });
  });

  it("keeps each call's own input when a model reuses a tool call id", async () => {
    const calls: string[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: [
        reply([
          { type: "tool-call", toolCallId: "call_0", toolName: "lookup", input: '{"n":1}' },
          { type: "tool-call", toolCallId: "call_0", toolName: "lookup", input: '{"n":2}' },
        ]),
        reply([{ type: "text", text: "done" }]),
      ],
    });
    await runToolLoop({ model, prompt, tools: [echo("lookup", calls)] });
    expect(calls).toEqual(['{"n":1}', '{"n":2}']);
    const assistant = model.doGenerateCalls[1]?.prompt[1];
    expect(
      assistant?.role === "assistant" &&
        assistant.content.map((part) => (part.type === "tool-call" ? part.input : undefined)),
    ).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("sends an empty-string input as {} to the tool and in the transcript", async () => {
    const calls: string[] = [];
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("lookup", "", { id: "c1" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [echo("lookup", calls)] });
    expect(calls).toEqual(["{}"]);
    const assistant = model.requests[1]?.prompt[1];
    expect(assistant?.role === "assistant" && assistant.content[0]).toMatchObject({ input: {} });
  });

  it("leaves provider-executed tool calls to the provider and keeps them with their results", async () => {
    const calls: string[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: [
        reply([
          ...providerSearch('{"q":"x"}', { hits: 1 }),
          { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: "{}" },
        ]),
        reply([{ type: "text", text: "done" }]),
      ],
    });
    const result = await runToolLoop({ model, prompt, tools: [echo("lookup", calls)] });
    expect(calls).toEqual(["{}"]);
    expect(result.text).toBe("done");
    const second = model.doGenerateCalls[1]?.prompt ?? [];
    expect(second[1]).toEqual({
      role: "assistant",
      content: [
        {
          type: "tool-call",
          toolCallId: "p1",
          toolName: "web_search",
          input: { q: "x" },
          providerExecuted: true,
        },
        {
          type: "tool-result",
          toolCallId: "p1",
          toolName: "web_search",
          output: { type: "json", value: { hits: 1 } },
        },
        { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: {} },
      ],
    });
    expect(second[2]).toMatchObject({ role: "tool", content: [{ toolCallId: "c1" }] });
  });

  it("answers with the text of a reply whose only tool calls the provider executed", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [reply([...providerSearch("{}", "found"), { type: "text", text: "It says found." }])],
    });
    const result = await runToolLoop({ model, prompt, tools: [] });
    expect(result.text).toBe("It says found.");
    expect(result.iterations).toBe(1);
  });

  it("sends reasoning back with its provider metadata on the next step", async () => {
    const signature = { anthropic: { signature: "sig-1" } };
    const model = new MockLanguageModelV3({
      doGenerate: [
        reply([
          { type: "reasoning", text: "I should look it up.", providerMetadata: signature },
          { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: "{}" },
        ]),
        reply([{ type: "text", text: "done" }]),
      ],
    });
    await runToolLoop({ model, prompt, tools: [echo("lookup")] });
    const assistant = model.doGenerateCalls[1]?.prompt[1];
    expect(assistant).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "I should look it up.", providerOptions: signature },
        { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: {} },
      ],
    });
  });

  it("counts token counts a provider leaves undefined as 0", async () => {
    const unknown = {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 3, text: undefined, reasoning: undefined },
    } satisfies LanguageModelV3Usage;
    const model = new MockLanguageModelV3({ doGenerate: [reply([{ type: "text", text: "hi" }], unknown)] });
    const result = await runToolLoop({ model, prompt, tools: [] });
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 3, totalTokens: 3 });
  });

  it("counts a reply without usage as 0 tokens", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        { ...reply([{ type: "text", text: "hi" }]), usage: undefined as unknown as LanguageModelV3Usage },
      ],
    });
    const result = await runToolLoop({ model, prompt, tools: [] });
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });
});

describe("loop configuration edge cases", () => {
  it("ends the loop with the error a strategy throws", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("lookup"), ScriptedModel.text("never"));
    const broken = new Error("strategy bug");
    const run = runToolLoop({
      model,
      prompt,
      tools: [echo("lookup")],
      injectionStrategy: {
        evaluate: () => {
          throw broken;
        },
      },
    });
    await expect(run).rejects.toBe(broken);
    expect(model.requests).toHaveLength(1);
  });

  it("rejects a toolDecorator that renames a tool, before calling the model", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("never"));
    const run = runToolLoop({
      model,
      prompt,
      tools: [echo("lookup")],
      toolDecorator: (tool) => tool.withName(`x_${tool.definition.name}`),
    });
    await expect(run).rejects.toThrow(
      "The toolDecorator renamed tool 'lookup' to 'x_lookup'. A tool decorator must keep the tool's name",
    );
    await expect(run).rejects.toBeInstanceOf(ConfigurationError);
    expect(model.requests).toHaveLength(0);
  });

  it("keeps concurrent loops apart: own loop ids, own transcripts", async () => {
    const seen: Array<[string, unknown]> = [];
    const tool = Tool.create("who", "Who am I", (input, context) => {
      seen.push([input, context?.get(ToolCallContext.LOOP_ID_KEY)]);
      return ToolResult.text(input);
    });
    const run = (label: string) =>
      runToolLoop({
        model: ScriptedModel.of(
          ScriptedModel.toolCall("who", { label }, { delayMs: 5 }),
          ScriptedModel.text(label, { delayMs: 1 }),
        ),
        prompt,
        tools: [tool],
      });
    const [first, second] = await Promise.all([run("first"), run("second")]);
    expect([first.text, second.text]).toEqual(["first", "second"]);
    expect(first.loopId).not.toBe(second.loopId);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['{"label":"first"}', first.loopId],
        ['{"label":"second"}', second.loopId],
      ]),
    );
    expect(first.prompt).toHaveLength(4);
    expect(second.prompt).toHaveLength(4);
  });
});

describe("an empty reply", () => {
  const NUDGE = "Your last reply was empty. Please answer, or call one of the available tools.";

  it("is re-prompted once with a short nudge, and the next reply is the answer", async () => {
    const model = ScriptedModel.of(ScriptedModel.text(""), ScriptedModel.text("Paris."));
    const result = await runToolLoop({ model, prompt, tools: [] });
    expect(result).toMatchObject({ text: "Paris.", iterations: 2 });
    expect(model.requests[1]?.prompt.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: NUDGE }],
    });
    expect(model.requests[1]?.prompt).toHaveLength(2); // the empty reply itself is not sent back
  });

  it("is returned as the (empty) answer when the reply to the nudge is empty too", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.text(""),
      ScriptedModel.text("  "),
      ScriptedModel.text("unused"),
    );
    const result = await runToolLoop({ model, prompt, tools: [] });
    expect(result).toMatchObject({ text: "  ", iterations: 2 });
    expect(model.requests).toHaveLength(2);
  });

  it("is nudged only once per loop, even after tool calls in between", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.text(""),
      ScriptedModel.toolCall("echo"),
      ScriptedModel.text(""),
      ScriptedModel.text("unused"),
    );
    const echo = Tool.create("echo", "Echo", () => ToolResult.text("echoed"));
    const result = await runToolLoop({ model, prompt, tools: [echo] });
    expect(result).toMatchObject({ text: "", iterations: 3 });
  });

  it("is the answer without a nudge when the iteration limit leaves no room", async () => {
    const model = ScriptedModel.of(ScriptedModel.text(""), ScriptedModel.text("unused"));
    const result = await runToolLoop({ model, prompt, tools: [], maxIterations: 1 });
    expect(result).toMatchObject({ text: "", iterations: 1 });
  });
});
