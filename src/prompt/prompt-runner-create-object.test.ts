import type { LanguageModelV3 } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { StructuredOutputError } from "../errors/structured-output-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { OneShotPerLoopTool } from "../tool/one-shot-per-loop-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { PromptRunner } from "./prompt-runner.js";
import { ToolGroupRegistry } from "./tool-group-registry.js";

const MathResult = domainType("MathResult", z.object({ expression: z.string(), value: z.number() }));

class Person {
  static schema = z.object({ name: z.string() });
  declare name: string;
  greeting(): string {
    return `Hello ${this.name}`;
  }
}

function runnerOn(model: LanguageModelV3): PromptRunner {
  return PromptRunner.create({
    resolveLlm: () => ({ model, name: "main", settings: {} }),
    toolGroups: new ToolGroupRegistry(),
  });
}

function lastUserText(model: ScriptedModel, request: number): string {
  const messages = model.requests[request]?.prompt ?? [];
  const last = messages[messages.length - 1];
  if (last?.role !== "user") return "";
  return last.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

describe("PromptRunner.createObject", () => {
  it("runs the corrective retry in the first attempt's loop, so tools keyed by loop id see one turn", async () => {
    const loopIds: (string | undefined)[] = [];
    const spy = Tool.create("spy", "Spy", (_input, context) => {
      loopIds.push(context.loopId());
      return ToolResult.text("ok");
    });
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("spy"),
      ScriptedModel.text("not json"),
      ScriptedModel.toolCall("spy"),
      ScriptedModel.text('{"expression":"6*7","value":42}'),
    );
    await runnerOn(model).withTool(spy).createObject("x", MathResult);
    expect(loopIds).toHaveLength(2);
    expect(loopIds[0]).toBeDefined();
    expect(loopIds[1]).toBe(loopIds[0]);
  });

  it("returns the validated object of a domain type", async () => {
    const model = ScriptedModel.of(ScriptedModel.text('{"expression":"6*7","value":42}'));
    expect(await runnerOn(model).createObject("Calculate 6 * 7", MathResult)).toEqual({
      expression: "6*7",
      value: 42,
    });
  });

  it("asks for JSON: a json response format with the schema, and the schema in the system message", async () => {
    const model = ScriptedModel.of(ScriptedModel.text('{"expression":"1","value":1}'));
    await runnerOn(model).withSystemPrompt("Be exact.").createObject("x", MathResult);
    const request = model.requests[0];
    expect(request?.options.responseFormat).toEqual({
      type: "json",
      schema: MathResult.jsonSchema,
      name: "MathResult",
    });
    const system = request?.prompt[0];
    expect(system?.role).toBe("system");
    expect(
      system?.role === "system" && system.content.startsWith("Be exact.\n\nYour final answer must be"),
    ).toBe(true);
  });

  it("accepts a plain zod schema", async () => {
    const model = ScriptedModel.of(ScriptedModel.text('["a","b"]'));
    expect(await runnerOn(model).createObject("x", z.array(z.string()))).toEqual(["a", "b"]);
  });

  it("accepts a class with a static zod schema and returns an instance", async () => {
    const model = ScriptedModel.of(ScriptedModel.text('{"name":"Ada"}'));
    const person = await runnerOn(model).createObject("x", Person);
    expect(person).toBeInstanceOf(Person);
    expect(person.greeting()).toBe("Hello Ada");
  });

  it("uses tools before answering", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("calculate"),
      ScriptedModel.text('{"expression":"6*7","value":42}'),
    );
    const calculate = Tool.create("calculate", "Performs calculations", async () =>
      ToolResult.text("Result: 42"),
    );
    expect((await runnerOn(model).withTool(calculate).createObject("x", MathResult)).value).toBe(42);
    expect(model.requests[0]?.toolNames).toEqual(["calculate"]);
  });

  it("retries once, telling the model exactly what was invalid, and returns the corrected object", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.text('{"expression":"6*7","value":"forty-two"}'),
      ScriptedModel.text('{"expression":"6*7","value":42}'),
    );
    expect(await runnerOn(model).createObject("Calculate 6 * 7", MathResult)).toEqual({
      expression: "6*7",
      value: 42,
    });
    expect(model.requests).toHaveLength(2);
    const correction = lastUserText(model, 1);
    expect(correction).toMatch(/^Your previous answer was not a valid MathResult:\n- value: /);
    const roles = model.requests[1]?.prompt.map((message) => message.role);
    expect(roles).toEqual(["system", "user", "assistant", "user"]);
  });

  it("tells the model when its answer is not JSON", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.text("It is 42."),
      ScriptedModel.text('{"expression":"e","value":42}'),
    );
    await runnerOn(model).createObject("x", MathResult);
    expect(lastUserText(model, 1)).toContain("- the answer is not valid JSON");
  });

  it("fails after a second invalid answer with an error carrying the raw text and the problems", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("nope"), ScriptedModel.text('{"expression":"e"}'));
    const error = await runnerOn(model)
      .createObject("x", MathResult)
      .catch((caught: unknown) => caught);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    const failure = error as StructuredOutputError;
    expect(failure.rawText).toBe('{"expression":"e"}');
    expect(failure.typeName).toBe("MathResult");
    expect(failure.attempts).toBe(2);
    expect(failure.problems[0]).toMatch(/^value: /);
    expect(failure.message).toContain('Raw answer: {"expression":"e"}');
    expect(model.requests).toHaveLength(2);
  });

  it("does not call the model again after an invalid returnDirect result", async () => {
    const direct = Tool.create(
      "direct",
      "Answers directly",
      { returnDirect: true, providerMetadata: {} },
      async () => ToolResult.text("not json"),
    );
    const model = ScriptedModel.of(ScriptedModel.toolCall("direct"), ScriptedModel.text("never"));
    await expect(runnerOn(model).withTool(direct).createObject("x", MathResult)).rejects.toThrow(
      StructuredOutputError,
    );
    expect(model.requests).toHaveLength(1);
  });

  it("parses a valid returnDirect result", async () => {
    const direct = Tool.create(
      "direct",
      "Answers directly",
      { returnDirect: true, providerMetadata: {} },
      async () => ToolResult.text('{"expression":"d","value":1}'),
    );
    const model = ScriptedModel.of(ScriptedModel.toolCall("direct"));
    expect(await runnerOn(model).withTool(direct).createObject("x", MathResult)).toEqual({
      expression: "d",
      value: 1,
    });
  });

  it("works with the AI SDK's MockLanguageModelV3", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "text", text: '{"expression":"2+2","value":4}' }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
        warnings: [],
      },
    });
    expect((await runnerOn(model).createObject("2+2", MathResult)).value).toBe(4);
    expect(model.doGenerateCalls[0]?.responseFormat?.type).toBe("json");
  });
});

describe("PromptRunner.createObject with String", () => {
  it("reads an answer a model wrapped in a json code fence without a retry", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "text", text: '```json\n{"expression":"2+2","value":4}\n```' }],
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      },
    });
    expect(await runnerOn(model).createObject("2+2", MathResult)).toEqual({ expression: "2+2", value: 4 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("asks for plain text, as generateText", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("just text"));
    expect(await runnerOn(model).createObject("x", String)).toBe("just text");
    expect(model.requests[0]?.options.responseFormat).toBeUndefined();
  });
});

describe("PromptRunner.creating", () => {
  it("creates objects from a prompt", async () => {
    const model = ScriptedModel.of(ScriptedModel.text('{"expression":"1+1","value":2}'));
    expect(await runnerOn(model).creating(MathResult).fromPrompt("1+1")).toEqual({
      expression: "1+1",
      value: 2,
    });
  });
});

describe("PromptRunner with a loop id in its tool-call context", () => {
  it("makes several runner calls one turn: a one-shot tool runs once across them", async () => {
    let runs = 0;
    const skill = new OneShotPerLoopTool(
      Tool.create("skill", "Loads the skill", () => {
        runs += 1;
        return ToolResult.text("SKILL BODY");
      }),
      "Use the body above.",
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("skill"),
      ScriptedModel.text("first"),
      ScriptedModel.toolCall("skill"),
      ScriptedModel.text("second"),
    );
    const runner = runnerOn(model)
      .withTool(skill)
      .withToolCallContext({ [ToolCallContext.LOOP_ID_KEY]: "turn-7" });
    expect(await runner.generateText("a")).toBe("first");
    expect(await runner.generateText("b")).toBe("second");
    expect(runs).toBe(1);
    expect(model.requests[3]?.toolResults[0]?.output).toMatchObject({
      value: expect.stringContaining("ALREADY LOADED."),
    });
  });
});
