import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ToolNotFoundError } from "../errors/tool-not-found-error.js";
import { ScriptedModel } from "../testing/index.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { runToolLoop } from "./tool-loop.js";

// The loop's answers to model mistakes: each is a tool result, and the loop goes on.

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

function echo(name: string): Tool {
  return Tool.create(name, name, () => ToolResult.text(`${name} done`));
}

const convert = Tool.of(
  "convert",
  "Converts a temperature",
  InputSchema.of(
    Param.double("value", "Degrees"),
    Param.string("unit", "Target unit", { enumValues: ["c", "f"] }),
    Param.object("options", [Param.integer("precision", "Digits")], "Options", { required: false }),
  ),
  ToolMetadata.DEFAULT,
  () => ToolResult.text("converted"),
);

async function answerTo(step: ReturnType<typeof ScriptedModel.toolCall>, tools: Tool[] = [convert]) {
  const model = ScriptedModel.of(step, ScriptedModel.text("finished"));
  const result = await runToolLoop({ model, prompt, tools });
  expect(result.text).toBe("finished");
  return model.requests[1]?.toolResults[0]?.output;
}

describe("in-band answers", () => {
  it("tells the model its arguments are not valid JSON", async () => {
    const output = await answerTo(ScriptedModel.toolCall("convert", '{"value": 3,'));
    expect(output?.type).toBe("error-text");
    expect((output as { value: string }).value).toMatch(
      /^Invalid arguments for tool 'convert': the arguments are not valid JSON \(.+\)\. Call the tool again with a valid JSON object as its arguments\.$/,
    );
  });

  it("tells the model its arguments must be a JSON object", async () => {
    const output = await answerTo(ScriptedModel.toolCall("convert", "[1,2]"));
    expect(output).toEqual({
      type: "error-text",
      value:
        "Invalid arguments for tool 'convert': the arguments must be a JSON object, got an array. Call the tool again with a valid JSON object as its arguments.",
    });
  });

  it("names a missing required field", async () => {
    const output = await answerTo(ScriptedModel.toolCall("convert", { unit: "c" }));
    expect(output).toEqual({
      type: "error-text",
      value:
        "Invalid arguments for tool 'convert': missing required field 'value'. Call the tool again with arguments that match its input schema.",
    });
  });

  it("names every problem of the arguments, separated by semicolons", async () => {
    const output = await answerTo(ScriptedModel.toolCall("convert", { unit: "k" }));
    expect(output).toEqual({
      type: "error-text",
      value:
        "Invalid arguments for tool 'convert': missing required field 'value'; field 'unit' must be one of [\"c\",\"f\"], got \"k\". Call the tool again with arguments that match its input schema.",
    });
  });

  it("names a field of the wrong type and what was expected", async () => {
    const output = await answerTo(ScriptedModel.toolCall("convert", { value: "hot", unit: "c" }));
    expect((output as { value: string }).value).toContain("field 'value' must be number, got string");
  });

  it("names a value outside the enum and the allowed values", async () => {
    const output = await answerTo(ScriptedModel.toolCall("convert", { value: 3, unit: "k" }));
    expect((output as { value: string }).value).toContain(`field 'unit' must be one of ["c","f"], got "k"`);
  });

  it("checks nested fields with their path", async () => {
    const output = await answerTo(
      ScriptedModel.toolCall("convert", { value: 3, unit: "c", options: { precision: 1.5 } }),
    );
    expect((output as { value: string }).value).toContain(
      "field 'options.precision' must be integer, got number",
    );
  });

  it("does not run the tool when the arguments are invalid", async () => {
    let ran = false;
    const tool = Tool.of("t", "t", InputSchema.of(Param.string("q", "query")), ToolMetadata.DEFAULT, () => {
      ran = true;
      return ToolResult.text("x");
    });
    await answerTo(ScriptedModel.toolCall("t", {}), [tool]);
    expect(ran).toBe(false);
  });

  it("treats blank arguments as an empty object", async () => {
    const output = await answerTo(ScriptedModel.toolCall("ping", ""), [echo("ping")]);
    expect(output).toEqual({ type: "text", value: "ping done" });
  });

  it("answers a throwing tool with the WARNING text", async () => {
    const failing = Tool.create("flaky", "flaky", () => {
      throw new Error("boom");
    });
    const output = await answerTo(ScriptedModel.toolCall("flaky"), [failing]);
    expect(output).toEqual({ type: "text", value: "WARNING: Tool 'flaky' failed with exception: boom" });
  });

  it("says 'No message' for a tool that throws an error without one", async () => {
    const failing = Tool.create("flaky", "flaky", () => {
      throw new Error("");
    });
    const output = await answerTo(ScriptedModel.toolCall("flaky"), [failing]);
    expect(output).toEqual({
      type: "text",
      value: "WARNING: Tool 'flaky' failed with exception: No message",
    });
  });

  it("quotes a thrown string as the message", async () => {
    const failing = Tool.create("flaky", "flaky", () => {
      throw "disk full";
    });
    const output = await answerTo(ScriptedModel.toolCall("flaky"), [failing]);
    expect(output).toEqual({ type: "text", value: "WARNING: Tool 'flaky' failed with exception: disk full" });
  });

  it("sends a ToolResult.error as an error tool result reading 'Error: <message>'", async () => {
    const failing = Tool.create("fails", "fails", () => ToolResult.error("Something went wrong"));
    const output = await answerTo(ScriptedModel.toolCall("fails"), [failing]);
    expect(output).toEqual({ type: "error-text", value: "Error: Something went wrong" });
  });

  it("sends an artifact result's content, never the artifact", async () => {
    const producing = Tool.create("produce", "produce", () =>
      ToolResult.withArtifact('{"data": "processed"}', { secret: 1 }),
    );
    const output = await answerTo(ScriptedModel.toolCall("produce"), [producing]);
    expect(output).toEqual({ type: "text", value: '{"data": "processed"}' });
  });

  it("answers an unknown tool with the exact reference wording and a suggestion", async () => {
    const output = await answerTo(ScriptedModel.toolCall("ragbot_vectorSearch"), [
      echo("vectorSearch"),
      echo("other"),
    ]);
    expect(output).toEqual({
      type: "error-text",
      value:
        "Tool 'ragbot_vectorSearch' does not exist. Did you mean 'vectorSearch'? Available tools: [vectorSearch, other]. Use the exact tool name from this list. Do not combine or prefix tool names — tool names found in source code or search results are not callable.",
    });
  });

  it("answers an unknown tool when no tools are offered", async () => {
    const output = await answerTo(ScriptedModel.toolCall("unknown_tool"), []);
    expect((output as { value: string }).value).toContain(
      "Tool 'unknown_tool' does not exist. Available tools: [].",
    );
  });

  it("throws ToolNotFoundError at the fourth consecutive miss", async () => {
    const model = new ScriptedModel([
      ...Array.from({ length: 4 }, () => ScriptedModel.toolCall("missing")),
      ScriptedModel.text("never"),
    ]);
    const error = await runToolLoop({ model, prompt, tools: [echo("present")] }).catch(
      (caught: unknown) => caught,
    );
    expect(ToolNotFoundError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ requestedTool: "missing", availableTools: ["present"] });
    expect((error as Error).message).toBe("Tool 'missing' not found. Available tools: [present]");
    expect(model.requests).toHaveLength(4);
  });

  it("resets the count after a call of an existing tool", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("missing"),
      ScriptedModel.toolCall("missing"),
      ScriptedModel.toolCall("present"),
      ScriptedModel.toolCall("missing"),
      ScriptedModel.toolCall("missing"),
      ScriptedModel.text("done"),
    );
    const result = await runToolLoop({ model, prompt, tools: [echo("present")] });
    expect(result.text).toBe("done");
  });

  it("counts misses inside one reply", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCalls([{ name: "m1" }, { name: "m2" }, { name: "m3" }, { name: "m4" }]),
      ScriptedModel.text("never"),
    );
    await expect(runToolLoop({ model, prompt, tools: [] })).rejects.toThrow("Tool 'm4' not found");
  });

  it("honours maxUnknownToolRetries", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("missing"), ScriptedModel.text("never"));
    await expect(runToolLoop({ model, prompt, tools: [], maxUnknownToolRetries: 0 })).rejects.toThrow(
      ToolNotFoundError,
    );
  });

  it("counts misses per loop, never across concurrent loops", async () => {
    const script = () =>
      new ScriptedModel([
        ScriptedModel.toolCall("missing", {}, { delayMs: 1 }),
        ScriptedModel.toolCall("missing", {}, { delayMs: 1 }),
        ScriptedModel.toolCall("missing", {}, { delayMs: 1 }),
        ScriptedModel.text("survived"),
      ]);
    const results = await Promise.all([
      runToolLoop({ model: script(), prompt, tools: [] }),
      runToolLoop({ model: script(), prompt, tools: [] }),
    ]);
    expect(results.map((result) => result.text)).toEqual(["survived", "survived"]);
  });

  it("answers a call whose schema nests too deeply to check, instead of failing the loop", async () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 20_000; level += 1) {
      schema = { type: "object", properties: { next: schema } };
    }
    const deep = Tool.of(
      "deep",
      "A tool with a very deep schema",
      InputSchema.fromJsonSchema(schema as never),
      ToolMetadata.DEFAULT,
      () => ToolResult.text("ran"),
    );
    const output = await answerTo(ScriptedModel.toolCall("deep", { next: {} }), [deep]);
    expect(output?.type).toBe("error-text");
    expect((output as { value: string }).value).toMatch(
      /^Tool 'deep' can't be called: its input schema can't be checked \(.+\)\. Use another tool\.$/,
    );
  });
});
