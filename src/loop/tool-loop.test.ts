import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { MaxIterationsExceededError } from "../errors/max-iterations-exceeded-error.js";
import { ReplanRequested } from "../errors/replan-requested.js";
import { ToolControlFlowSignal } from "../errors/tool-control-flow-signal.js";
import { ScriptedModel } from "../testing/index.js";
import { InputSchema } from "../tool/input-schema.js";
import { OneShotPerLoopTool } from "../tool/one-shot-per-loop-tool.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { runToolLoop, type ToolLoopEvent } from "./tool-loop.js";

const prompt: LanguageModelV3Prompt = [
  { role: "system", content: "You are helpful." },
  { role: "user", content: [{ type: "text", text: "What is the weather?" }] },
];

function echo(name: string, reply = `${name} done`): Tool {
  return Tool.create(name, `The ${name} tool`, () => ToolResult.text(reply));
}

function weather(received: string[] = []): Tool {
  return Tool.of(
    "get_weather",
    "Current weather",
    InputSchema.of(
      Param.string("location", "City"),
      Param.string("unit", "Unit", { required: false, enumValues: ["c", "f"] }),
    ),
    ToolMetadata.DEFAULT,
    (input) => {
      received.push(input);
      return ToolResult.text("Sunny, 20C");
    },
  );
}

class Stop extends ToolControlFlowSignal {
  constructor() {
    super("stop now");
    this.name = "Stop";
  }
}

describe("runToolLoop", () => {
  it("returns a text answer after one iteration", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("Hello"));
    const result = await runToolLoop({ model, prompt, tools: [] });
    expect(result.text).toBe("Hello");
    expect(result.iterations).toBe(1);
    expect(result.returnedDirect).toBe(false);
  });

  it("passes the model's exact argument string to the tool and returns the final text", async () => {
    const received: string[] = [];
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("get_weather", '{"location": "San Francisco"}'),
      ScriptedModel.text("It is sunny."),
    );
    const result = await runToolLoop({ model, prompt, tools: [weather(received)] });
    expect(received).toEqual(['{"location": "San Francisco"}']);
    expect(result.text).toBe("It is sunny.");
    expect(result.iterations).toBe(2);
  });

  it("sends each tool as a function definition with its JSON Schema", async () => {
    const tool = weather();
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [tool] });
    expect(model.requests[0]?.tools).toEqual([
      {
        type: "function",
        name: "get_weather",
        description: "Current weather",
        inputSchema: tool.definition.inputSchema.jsonSchema,
      },
    ]);
  });

  it("feeds the tool result back as a tool-result message after the assistant's tool call", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("get_weather", { location: "Paris" }, { id: "c1" }),
      ScriptedModel.text("ok"),
    );
    const result = await runToolLoop({ model, prompt, tools: [weather()] });
    const second = model.requests[1]?.prompt ?? [];
    expect(second.slice(2)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c1", toolName: "get_weather", input: { location: "Paris" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "get_weather",
            output: { type: "text", value: "Sunny, 20C" },
          },
        ],
      },
    ]);
    expect(result.prompt).toHaveLength(5);
  });

  it("never mutates the caller's prompt", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("get_weather", { location: "Paris" }),
      ScriptedModel.text("ok"),
    );
    const original = [...prompt];
    await runToolLoop({ model, prompt: original, tools: [weather()] });
    expect(original).toHaveLength(2);
  });

  it("works with the AI SDK's MockLanguageModelV3", async () => {
    const usage = {
      inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 2, text: 2, reasoning: undefined },
    };
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            { type: "tool-call", toolCallId: "c1", toolName: "get_weather", input: '{"location":"Rome"}' },
          ],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        },
        {
          content: [{ type: "text", text: "Warm." }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        },
      ],
    });
    const result = await runToolLoop({ model, prompt, tools: [weather()] });
    expect(result.text).toBe("Warm.");
    expect(model.doGenerateCalls.map((call) => call.tools?.map((tool) => tool.name))).toEqual([
      ["get_weather"],
      ["get_weather"],
    ]);
    expect(result.usage).toEqual({ inputTokens: 6, outputTokens: 4, totalTokens: 10 });
  });

  it("sums usage over every LLM call", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("a", {}, { usage: { inputTokens: 10, outputTokens: 2 } }),
      ScriptedModel.text("done", { usage: { inputTokens: 15, outputTokens: 5 } }),
    );
    const result = await runToolLoop({ model, prompt, tools: [echo("a")] });
    expect(result.usage).toEqual({ inputTokens: 25, outputTokens: 7, totalTokens: 32 });
  });

  it("executes several tool calls of one reply in order, results in order", async () => {
    const order: string[] = [];
    const tool = (name: string) =>
      Tool.create(name, name, () => {
        order.push(name);
        return ToolResult.text(`${name}!`);
      });
    const model = ScriptedModel.of(
      ScriptedModel.toolCalls([{ name: "first" }, { name: "second" }]),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [tool("first"), tool("second")] });
    expect(order).toEqual(["first", "second"]);
    expect(model.requests[1]?.toolResults.map((part) => part.output)).toEqual([
      { type: "text", value: "first!" },
      { type: "text", value: "second!" },
    ]);
  });

  it("runs the tool calls of one reply one after another unless parallelToolCalls is set", async () => {
    const log: string[] = [];
    const slow = (name: string) =>
      Tool.create(name, name, async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${name}`);
        return ToolResult.text(`${name}!`);
      });
    const model = ScriptedModel.of(
      ScriptedModel.toolCalls([{ name: "first" }, { name: "second" }]),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [slow("first"), slow("second")] });
    expect(log).toEqual(["start first", "end first", "start second", "end second"]);
  });

  it("passes both the signal and inProcess to every tool call", async () => {
    const seen: unknown[] = [];
    const probe = Tool.create("probe", "probe", (_input, _context, options) => {
      seen.push(options);
      return ToolResult.text("ok");
    });
    const signal = new AbortController().signal;
    const inProcess = <T>(fn: () => Promise<T>) => fn();
    const model = ScriptedModel.of(ScriptedModel.toolCall("probe", {}), ScriptedModel.text("done"));
    await runToolLoop({ model, prompt, tools: [probe], signal, inProcess });
    expect(seen).toEqual([{ signal, inProcess, callKey: expect.stringMatching(/\/1\.0$/) }]);
  });

  it("runs tool calls concurrently with parallelToolCalls, results in call order", async () => {
    const started: string[] = [];
    // "slow" finishes only once "fast" has started: run one after the other, it would never finish.
    let fastStarted!: () => void;
    const fastHasStarted = new Promise<void>((resolve) => {
      fastStarted = resolve;
    });
    const slow = Tool.create("slow", "slow", async () => {
      started.push("slow");
      await fastHasStarted;
      return ToolResult.text("slow result");
    });
    const fast = Tool.create("fast", "fast", async () => {
      started.push("fast");
      fastStarted();
      return ToolResult.text("fast result");
    });
    const model = ScriptedModel.of(
      ScriptedModel.toolCalls([{ name: "slow" }, { name: "fast" }]),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [slow, fast], parallelToolCalls: true });
    expect(started).toEqual(["slow", "fast"]);
    expect(model.requests[1]?.toolResults.map((part) => part.toolName)).toEqual(["slow", "fast"]);
  });

  it("returns a returnDirect tool's content without calling the model again", async () => {
    const background = Tool.create(
      "start_task",
      "Starts a task",
      ToolMetadata.create({ returnDirect: true }),
      () => ToolResult.text("Task started in background"),
    );
    const model = ScriptedModel.of(ScriptedModel.toolCall("start_task"), ScriptedModel.text("never"));
    const result = await runToolLoop({ model, prompt, tools: [background] });
    expect(result.text).toBe("Task started in background");
    expect(result.returnedDirect).toBe(true);
    expect(result.iterations).toBe(1);
    expect(model.remaining).toBe(1);
  });

  it("does not return directly when the returnDirect tool returned an error", async () => {
    const failing = Tool.create("start_task", "Starts", ToolMetadata.create({ returnDirect: true }), () =>
      ToolResult.error("queue full"),
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("start_task"),
      ScriptedModel.text("Sorry, the queue is full."),
    );
    const result = await runToolLoop({ model, prompt, tools: [failing] });
    expect(result.returnedDirect).toBe(false);
    expect(result.text).toBe("Sorry, the queue is full.");
  });

  it("ends with a replan when a tool throws ReplanRequested, skipping the rest of the batch", async () => {
    const updater = () => {};
    let secondRan = false;
    const replanning = Tool.create("escalate", "Escalate", () => {
      throw new ReplanRequested("User needs support", updater);
    });
    const second = Tool.create("second", "second", () => {
      secondRan = true;
      return ToolResult.text("x");
    });
    const model = ScriptedModel.of(
      ScriptedModel.toolCalls([{ name: "escalate" }, { name: "second" }]),
      ScriptedModel.text("never"),
    );
    const result = await runToolLoop({ model, prompt, tools: [replanning, second] });
    expect(result.replan).toEqual({ reason: "User needs support", blackboardUpdater: updater });
    expect(result.text).toBe("");
    expect(secondRan).toBe(false);
    expect(model.remaining).toBe(1);
    // The transcript ends with the calls; no tool message without results follows them.
    expect(result.prompt.map((message) => message.role)).toEqual(["system", "user", "assistant"]);
  });

  it("reports the first replan in call order with parallel tool calls", async () => {
    // "b_slow" (called first) asks to replan only after "a_fast" (called second) has.
    let fastAsked!: () => void;
    const fastHasAsked = new Promise<void>((resolve) => {
      fastAsked = resolve;
    });
    const bSlow = Tool.create("b_slow", "b_slow", async () => {
      await fastHasAsked;
      throw new ReplanRequested("b_slow wants it");
    });
    const aFast = Tool.create("a_fast", "a_fast", async () => {
      fastAsked();
      throw new ReplanRequested("a_fast wants it");
    });
    const model = ScriptedModel.of(ScriptedModel.toolCalls([{ name: "b_slow" }, { name: "a_fast" }]));
    const result = await runToolLoop({
      model,
      prompt,
      tools: [bSlow, aFast],
      parallelToolCalls: true,
    });
    expect(result.replan?.reason).toBe("b_slow wants it");
  });

  it("lets other control-flow signals propagate", async () => {
    const stopping = Tool.create("stop", "stop", () => {
      throw new Stop();
    });
    const model = ScriptedModel.of(ScriptedModel.toolCall("stop"), ScriptedModel.text("never"));
    await expect(runToolLoop({ model, prompt, tools: [stopping] })).rejects.toBeInstanceOf(Stop);
  });

  it("throws MaxIterationsExceededError with the transcript at maxIterations", async () => {
    const model = new ScriptedModel(Array.from({ length: 6 }, () => ScriptedModel.toolCall("loop_tool")));
    const error = await runToolLoop({ model, prompt, tools: [echo("loop_tool")], maxIterations: 5 }).catch(
      (caught: unknown) => caught,
    );
    expect(MaxIterationsExceededError.isInstance(error)).toBe(true);
    const limit = error as MaxIterationsExceededError;
    expect(limit.maxIterations).toBe(5);
    expect(limit.message).toBe(
      "Tool loop exceeded maximum iterations (5). This may indicate a loop in tool calls or an overly complex task.",
    );
    expect(limit.transcript).toHaveLength(2 + 5 * 2);
    expect(model.requests).toHaveLength(5);
  });

  it("rejects a maxIterations below 1 or not an integer before calling the model", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("never"));
    for (const maxIterations of [0, -1, 2.5, Number.NaN]) {
      await expect(runToolLoop({ model, prompt, tools: [], maxIterations })).rejects.toThrow(
        `The tool loop's maxIterations must be an integer >= 1, got ${maxIterations}.`,
      );
    }
    const unknownRetries = runToolLoop({ model, prompt, tools: [], maxUnknownToolRetries: -1 });
    await expect(unknownRetries).rejects.toBeInstanceOf(ConfigurationError);
    await expect(unknownRetries).rejects.toThrow(
      "The tool loop's maxUnknownToolRetries must be an integer >= 0, got -1.",
    );
    expect(model.requests).toHaveLength(0);
  });

  it("defaults maxIterations to 20", async () => {
    const model = new ScriptedModel(Array.from({ length: 25 }, () => ScriptedModel.toolCall("loop_tool")));
    await expect(runToolLoop({ model, prompt, tools: [echo("loop_tool")] })).rejects.toThrow("(20)");
    expect(model.requests).toHaveLength(20);
  });

  it("passes a fresh loop id, merged onto the given context, to every tool call", async () => {
    const seen: ToolCallContext[] = [];
    const spy = Tool.create("spy", "spy", (_input, context) => {
      seen.push(context);
      return ToolResult.text("ok");
    });
    const run = () =>
      runToolLoop({
        model: ScriptedModel.of(
          ScriptedModel.toolCall("spy"),
          ScriptedModel.toolCall("spy"),
          ScriptedModel.text("ok"),
        ),
        prompt,
        tools: [spy],
        context: ToolCallContext.of({ tenant: "acme" }),
      });
    const first = await run();
    await run();
    expect(seen.map((context) => context.get("tenant"))).toEqual(["acme", "acme", "acme", "acme"]);
    expect(seen[0]?.loopId()).toBe(first.loopId);
    expect(seen[1]?.loopId()).toBe(first.loopId);
    expect(seen[2]?.loopId()).not.toBe(first.loopId);
  });

  it("keeps the loop id of a context that already has one, so a one-shot tool stays spent across the turn", async () => {
    let runs = 0;
    const activator = new OneShotPerLoopTool(
      Tool.create("skill", "Loads the skill", () => {
        runs += 1;
        return ToolResult.text("SKILL BODY");
      }),
      "Write your script now.",
    );
    const turn = ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: "turn-1", tenant: "acme" });
    const run = (model: ScriptedModel) => runToolLoop({ model, prompt, tools: [activator], context: turn });
    const first = await run(ScriptedModel.of(ScriptedModel.toolCall("skill"), ScriptedModel.text("a")));
    const secondModel = ScriptedModel.of(ScriptedModel.toolCall("skill"), ScriptedModel.text("b"));
    const second = await run(secondModel);
    expect([first.loopId, second.loopId]).toEqual(["turn-1", "turn-1"]);
    expect(runs).toBe(1);
    expect(secondModel.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: expect.stringMatching(/^ALREADY LOADED\. .*Write your script now\.$/),
    });
  });

  it("emits an event for every LLM call and tool call", async () => {
    const events: ToolLoopEvent[] = [];
    const model = ScriptedModel.of(ScriptedModel.toolCall("a", {}, { id: "c1" }), ScriptedModel.text("ok"));
    const result = await runToolLoop({
      model,
      prompt,
      tools: [echo("a")],
      onEvent: (event) => events.push(event),
    });
    expect(events.map((event) => event.type)).toEqual([
      "llm-call-start",
      "llm-call-end",
      "tool-call-start",
      "tool-call-end",
      "llm-call-start",
      "llm-call-end",
    ]);
    expect(events.every((event) => event.loopId === result.loopId)).toBe(true);
    expect(events[0]).toMatchObject({ iteration: 1, toolNames: ["a"] });
    expect(events[3]).toMatchObject({
      toolName: "a",
      toolCallId: "c1",
      result: { kind: "text", content: "a done" },
    });
  });

  it("times each LLM call from its start: llm-call-end's duration is at most the whole loop's", async () => {
    const events: ToolLoopEvent[] = [];
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    const before = performance.now();
    await runToolLoop({ model, prompt, tools: [], onEvent: (event) => events.push(event) });
    const elapsed = performance.now() - before;
    const end = events.find((event) => event.type === "llm-call-end");
    expect(end?.type === "llm-call-end" && end.durationMs).toBeGreaterThanOrEqual(0);
    expect(end?.type === "llm-call-end" && end.durationMs).toBeLessThanOrEqual(elapsed);
  });

  it("delivers only the event types asked for", async () => {
    const events: ToolLoopEvent[] = [];
    const model = ScriptedModel.of(ScriptedModel.toolCall("a", {}, { id: "c1" }), ScriptedModel.text("ok"));
    await runToolLoop({
      model,
      prompt,
      tools: [echo("a")],
      onEvent: (event) => events.push(event),
      eventTypes: new Set(["llm-call-end", "tool-call-end"]),
    });
    expect(events.map((event) => event.type)).toEqual(["llm-call-end", "tool-call-end", "llm-call-end"]);
    expect(events[1]).toMatchObject({ toolName: "a", toolCallId: "c1", result: { content: "a done" } });
  });

  it("keeps going when an event listener throws", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    const result = await runToolLoop({
      model,
      prompt,
      tools: [],
      onEvent: () => {
        throw new Error("listener bug");
      },
    });
    expect(result.text).toBe("ok");
  });

  it("passes settings, response format and tool choice through to the model", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("{}"));
    await runToolLoop({
      model,
      prompt,
      tools: [echo("a")],
      settings: { temperature: 0.2, maxOutputTokens: 100, topP: 0.9, seed: 7 },
      responseFormat: { type: "json" },
      toolChoice: { type: "required" },
    });
    expect(model.requests[0]?.options).toMatchObject({
      temperature: 0.2,
      maxOutputTokens: 100,
      topP: 0.9,
      seed: 7,
      responseFormat: { type: "json" },
      toolChoice: { type: "required" },
    });
  });

  it("cuts a tool result to 100,000 characters by default, saying how much was cut", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("big", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [echo("big", "y".repeat(100_001))] });
    const output = model.requests[1]?.toolResults[0]?.output as { value: string };
    expect(output.value.startsWith("y".repeat(100_000))).toBe(true);
    expect(output.value).toContain("showing the first 100,000 of 100,001 characters (1 cut)");
  });

  it("refuses a maxToolResultChars that is not a positive integer, before calling the model", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    await expect(runToolLoop({ model, prompt, tools: [], maxToolResultChars: 0 })).rejects.toThrow(
      "The tool loop's maxToolResultChars must be a positive integer (or Infinity for no cap), got 0.",
    );
    expect(model.requests).toHaveLength(0);
  });

  it("sends no tools field when no tools are offered", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [] });
    expect(model.requests[0]?.options.tools).toBeUndefined();
  });

  it("decorates every offered tool with toolDecorator", async () => {
    const decorate = (tool: Tool) => tool.withNote("decorated");
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [echo("a")], toolDecorator: decorate });
    expect(model.requests[0]?.tools[0]?.description).toBe("The a tool. decorated");
  });

  it("rejects two different tools with one name as a configuration error", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    await expect(runToolLoop({ model, prompt, tools: [echo("a"), echo("a")] })).rejects.toThrow(
      "Two different tools are named 'a'",
    );
  });

  it("offers the same tool listed twice once", async () => {
    const tool = echo("a");
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [tool, tool] });
    expect(model.requests[0]?.toolNames).toEqual(["a"]);
  });
});
