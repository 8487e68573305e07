// A small agent program without MCP: a Tool, a PromptRunner from an AgentPlatform, one @llmTool class.

import { z } from "zod";
import { AgentPlatform, llmTool, Tool, ToolResult } from "../../../dist/src/index.js";
import { ScriptedModel } from "../../../dist/src/testing/index.js";

class MathTools {
  @llmTool({ description: "Add two numbers", input: z.object({ a: z.number(), b: z.number() }) })
  add({ a, b }: { a: number; b: number }) {
    return a + b;
  }
}

const echo = Tool.create("echo", "Echoes its input", (input) => ToolResult.text(input));
const model = new ScriptedModel([ScriptedModel.toolCall("add", { a: 2, b: 3 }), ScriptedModel.text("5")]);
const platform = AgentPlatform.create({ models: { default: model } });
console.log(await platform.ai().withToolObject(new MathTools()).withTool(echo).generateText("2 + 3?"));
