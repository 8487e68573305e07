import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../testing/index.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { MAX_ARGUMENT_DEPTH, nestedTooDeeply } from "./argument-depth.js";
import { runToolLoop } from "./tool-loop.js";

// Failures the fuzzer (test/fuzz) found, each kept as a plain test.

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

const nestedArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

function recordingTool(name: string, calls: string[]): Tool {
  return Tool.create(
    name,
    name,
    InputSchema.of(Param.string("text", "Text", { required: false })),
    (input) => {
      calls.push(input);
      return ToolResult.text("ran");
    },
  );
}

describe("deeply nested tool arguments", () => {
  it("are answered in-band, without running the tool, and every later request can still be serialised", async () => {
    const calls: string[] = [];
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("note", nestedObjects(20_000), { id: "c1" }),
      ScriptedModel.toolCall("note", nestedArrays(10_000), { id: "c2" }),
      ScriptedModel.text("gave up"),
    );
    const result = await runToolLoop({ model, prompt, tools: [recordingTool("note", calls)] });
    expect(result.text).toBe("gave up");
    expect(calls).toEqual([]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "error-text",
      value: `Invalid arguments for tool 'note': the arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep. Call the tool again with arguments that match its input schema.`,
    });
    // A provider JSON.stringifies the prompt; before the fix this threw "Maximum call stack size exceeded".
    for (const request of model.requests) expect(() => JSON.stringify(request.prompt)).not.toThrow();
  });

  it("of an unknown tool or a provider-executed call stay raw text in the transcript", async () => {
    const deep = nestedArrays(10_000);
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("missing", deep, { id: "c1" }),
      ScriptedModel.text("ok"),
    );
    const result = await runToolLoop({ model, prompt, tools: [] });
    const assistant = result.prompt[1];
    expect(assistant?.role === "assistant" && assistant.content[0]).toMatchObject({
      type: "tool-call",
      input: deep,
    });
    expect(() => JSON.stringify(result.prompt)).not.toThrow();
  });

  it("up to the limit still reach the tool", async () => {
    const calls: string[] = [];
    const input = `{"text":"t","nested":${nestedArrays(MAX_ARGUMENT_DEPTH - 1)}}`;
    const model = ScriptedModel.of(ScriptedModel.toolCall("note", input), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [recordingTool("note", calls)] });
    expect(calls).toEqual([input]);
  });
});

describe("huge values in tool arguments", () => {
  it("are quoted cut to 100 characters in the in-band answer", async () => {
    const huge = "x".repeat(50_000);
    const pick = Tool.create(
      "pick",
      "Picks a mode",
      InputSchema.of(Param.string("mode", "The mode", { enumValues: ["fast", "slow"] })),
      () => ToolResult.text("picked"),
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("pick", JSON.stringify(huge), { id: "c1" }),
      ScriptedModel.toolCall("pick", { mode: huge }, { id: "c2" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [pick] });
    const shown = `"${"x".repeat(99)}… (50002 characters)`;
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "error-text",
      value: `Invalid arguments for tool 'pick': the arguments must be a JSON object, got ${shown}. Call the tool again with a valid JSON object as its arguments.`,
    });
    expect(model.requests[2]?.toolResults[0]?.output).toEqual({
      type: "error-text",
      value: `Invalid arguments for tool 'pick': field 'mode' must be one of ["fast","slow"], got ${shown}. Call the tool again with arguments that match its input schema.`,
    });
  });
});

describe("nestedTooDeeply", () => {
  it("counts brackets outside strings only", () => {
    expect(nestedTooDeeply(JSON.stringify({ text: "[".repeat(1_000) }))).toBe(false);
    expect(nestedTooDeeply(JSON.stringify({ text: `\\"${"{".repeat(1_000)}` }))).toBe(false);
    expect(nestedTooDeeply(nestedArrays(MAX_ARGUMENT_DEPTH))).toBe(false);
    expect(nestedTooDeeply(nestedArrays(MAX_ARGUMENT_DEPTH + 1))).toBe(true);
    expect(nestedTooDeeply(`[${"[]".repeat(10_000)}]`)).toBe(false);
  });
});
