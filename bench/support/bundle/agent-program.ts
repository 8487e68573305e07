// A tools + agent program without MCP: createAgentPlatform, a defineAgent agent
// whose action calls a tool, and platform.ai().withTool(...).generateText.
import { z } from "zod";
import {
  createAgentPlatform,
  defineAction,
  defineAgent,
  domainType,
  Tool,
  ToolResult,
} from "../../../dist/src/index.js";
import { ScriptedModel } from "../../../dist/src/testing/index.js";

const Question = domainType("Question", z.object({ text: z.string() }));
const Answer = domainType("Answer", z.object({ text: z.string() }));
const add = Tool.fromFunction({
  name: "add",
  description: "Add two numbers",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ToolResult.text(String(a + b)),
});
const model = new ScriptedModel([ScriptedModel.toolCall("add", { a: 2, b: 3 }), ScriptedModel.text("5")]);
const platform = createAgentPlatform({ models: { default: model } });
platform.deploy(
  defineAgent({
    name: "Adder",
    description: "Answers sums",
    actions: [
      defineAction({
        name: "answer",
        input: Question,
        output: Answer,
        achievesGoal: { description: "An answered sum" },
        run: async (question, context) => ({
          text: await context.ai().withTool(add).generateText(question.text),
        }),
      }),
    ],
    goals: [],
  }),
);
console.log(await platform.ai().withTool(add).generateText("2 + 3?"));
