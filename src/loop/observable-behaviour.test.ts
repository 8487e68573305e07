// Behaviours a user or a model can observe that mutation testing found
// untested (../shared/reviews/mutation-review.md): each test here fails when
// the line it guards is changed.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../testing/index.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { EMPTY_REPLY_NUDGE } from "./loop-messages.js";
import { runToolLoop, type ToolLoopEvent } from "./tool-loop.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Go" }] }];
const echo = (name: string) => Tool.create(name, `The ${name} tool`, () => ToolResult.text(`${name} done`));

describe("what reaches the model", () => {
  it("sends topK, stopSequences, providerOptions and headers", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    const stopSequences = ["END"];
    await runToolLoop({
      model,
      prompt,
      tools: [],
      settings: { topK: 40, stopSequences, providerOptions: { openai: { user: "u-1" } } },
      headers: { "x-tenant": "acme" },
    });
    const options = model.requests[0]?.options;
    expect(options).toMatchObject({
      topK: 40,
      stopSequences: ["END"],
      providerOptions: { openai: { user: "u-1" } },
      headers: { "x-tenant": "acme" },
    });
    // A copy: the caller's array is not handed to the provider.
    expect(options?.stopSequences).not.toBe(stopSequences);
  });

  it("gives each round's llm-call-start the messages of that round, not the growing transcript", async () => {
    const starts: ToolLoopEvent[] = [];
    const model = ScriptedModel.of(ScriptedModel.toolCall("a", {}), ScriptedModel.text("ok"));
    await runToolLoop({
      model,
      prompt,
      tools: [echo("a")],
      onEvent: (event) => starts.push(event),
      eventTypes: new Set(["llm-call-start"]),
    });
    const lengths = starts.map((event) => (event.type === "llm-call-start" ? event.prompt?.length : -1));
    expect(lengths).toEqual([1, 3]);
  });

  it("nudges a whitespace-only reply once, keeping it in the transcript, instead of taking it as the answer", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("  \n\t"), ScriptedModel.text("The answer"));
    const result = await runToolLoop({ model, prompt, tools: [] });
    expect(result.text).toBe("The answer");
    const second = model.requests[1]?.prompt ?? [];
    expect(second.at(-2)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "  \n\t" }] });
    expect(second.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: EMPTY_REPLY_NUDGE }] });
  });
});

describe("events a listener asks for", () => {
  it("delivers tool-call-start, tools-changed and llm-call-start when asked for each", async () => {
    const facade = Tool.create("outer", "Outer", () => ToolResult.text("x"));
    const { UnfoldingTool } = await import("../progressive/unfolding-tool.js");
    const unfolding = UnfoldingTool.of("tools", "Tools", [facade]);
    for (const type of ["tool-call-start", "tools-changed", "llm-call-start"] as const) {
      const events: ToolLoopEvent[] = [];
      const model = ScriptedModel.of(ScriptedModel.toolCall("tools", {}), ScriptedModel.text("ok"));
      await runToolLoop({
        model,
        prompt,
        tools: [unfolding],
        onEvent: (event) => events.push(event),
        eventTypes: new Set([type]),
      });
      expect(events.length, type).toBeGreaterThan(0);
      expect(new Set(events.map((event) => event.type))).toEqual(new Set([type]));
    }
  });

  it("ends every tool-call-start with a tool-call-end: unknown tools and invalid arguments too", async () => {
    const events: ToolLoopEvent[] = [];
    const typed = Tool.of(
      "typed",
      "Typed",
      InputSchema.of(Param.integer("n", "A number")),
      ToolMetadata.DEFAULT,
      () => ToolResult.text("ran"),
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("nope", {}, { id: "u1" }),
      ScriptedModel.toolCall("typed", { n: "not a number" }, { id: "v1" }),
      ScriptedModel.toolCall("typed", "{not json", { id: "j1" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({
      model,
      prompt,
      tools: [typed],
      onEvent: (event) => events.push(event),
      eventTypes: new Set(["tool-call-start", "tool-call-end"]),
    });
    const pairs = events.map((event) =>
      event.type === "tool-call-start" || event.type === "tool-call-end"
        ? `${event.type}:${event.toolCallId}`
        : "",
    );
    expect(pairs).toEqual([
      "tool-call-start:u1",
      "tool-call-end:u1",
      "tool-call-start:v1",
      "tool-call-end:v1",
      "tool-call-start:j1",
      "tool-call-end:j1",
    ]);
    const ends = events.filter((event) => event.type === "tool-call-end");
    expect(ends.map((event) => event.type === "tool-call-end" && event.result.kind)).toEqual([
      "error",
      "error",
      "error",
    ]);
  });
});

describe("tools that fail", () => {
  it("does not end the loop on a returnDirect tool that throws: the model hears the failure and goes on", async () => {
    const direct = Tool.create(
      "direct",
      "Answers directly",
      ToolMetadata.create({ returnDirect: true }),
      () => {
        throw new Error("database down");
      },
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("direct", {}),
      ScriptedModel.text("Sorry, it failed."),
    );
    const result = await runToolLoop({ model, prompt, tools: [direct] });
    expect(result.returnedDirect).toBe(false);
    expect(result.text).toBe("Sorry, it failed.");
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: "WARNING: Tool 'direct' failed with exception: database down",
    });
  });

  it.each([
    ["a number", 42],
    ["an object", {}],
    ["an empty string", ""],
    ["an array", ["quota exceeded"]],
    ["an Error without a message", new Error("")],
  ])("reports a thrown %s as 'No message'", async (_, thrown) => {
    const throwing = Tool.create("t", "T", () => {
      throw thrown;
    });
    const model = ScriptedModel.of(ScriptedModel.toolCall("t", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [throwing] });
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: "WARNING: Tool 't' failed with exception: No message",
    });
  });

  it("reports a thrown non-empty string as itself", async () => {
    const throwing = Tool.create("t", "T", () => {
      throw "quota exceeded";
    });
    const model = ScriptedModel.of(ScriptedModel.toolCall("t", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [throwing] });
    expect(model.requests[1]?.toolResults[0]?.output).toMatchObject({
      value: "WARNING: Tool 't' failed with exception: quota exceeded",
    });
  });
});

describe("arguments", () => {
  const received: string[] = [];
  const optional = Tool.of(
    "opt",
    "Optional input",
    InputSchema.of(Param.string("q", "Query", { required: false })),
    ToolMetadata.DEFAULT,
    (input) => {
      received.push(input);
      return ToolResult.text("ran");
    },
  );

  it("treats whitespace-only arguments as no arguments ({})", async () => {
    received.length = 0;
    const model = ScriptedModel.of(ScriptedModel.toolCall("opt", "  \n "), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [optional] });
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({ type: "text", value: "ran" });
    expect(received).toHaveLength(1);
  });

  it("refuses null arguments: they must be a JSON object", async () => {
    received.length = 0;
    const model = ScriptedModel.of(ScriptedModel.toolCall("opt", "null"), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [optional] });
    const output = model.requests[1]?.toolResults[0]?.output;
    expect(output?.type).toBe("error-text");
    expect(JSON.stringify(output)).toContain("must be a JSON object");
    expect(received).toHaveLength(0);
  });
});

describe("injection strategies that change nothing", () => {
  it("emits no tools-changed event when a strategy's change leaves the list as it was", async () => {
    const events: ToolLoopEvent[] = [];
    const a = echo("a");
    const model = ScriptedModel.of(ScriptedModel.toolCall("a", {}), ScriptedModel.text("ok"));
    await runToolLoop({
      model,
      prompt,
      tools: [a],
      // Adds a tool already offered and removes one that is not: no change at all.
      injectionStrategy: { evaluate: () => ({ add: [a], remove: ["missing"] }) },
      onEvent: (event) => events.push(event),
      eventTypes: new Set(["tools-changed"]),
    });
    expect(events).toEqual([]);
    expect(model.requests[1]?.toolNames).toEqual(["a"]);
  });
});
