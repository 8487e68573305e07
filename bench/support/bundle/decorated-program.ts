// A tools + agent program written with decorators: an @agent class whose @action asks
// the model with an @llmTool object. Bundled, the decorators bring what reads them
// (test/bundle.test.ts runs it; the agent program without decorators leaves that out).
import { z } from "zod";
import {
  achievesGoal,
  action,
  agent,
  createAgentPlatform,
  domainType,
  llmTool,
  type OperationContext,
} from "../../../dist/src/index.js";
import { ScriptedModel } from "../../../dist/src/testing/index.js";

const Question = domainType("Question", z.object({ text: z.string() }));
const Answer = domainType("Answer", z.object({ text: z.string() }));

class MathTools {
  @llmTool({ description: "Add two numbers", input: z.object({ a: z.number(), b: z.number() }) })
  add({ a, b }: { a: number; b: number }) {
    return a + b;
  }
}

@agent({ description: "Answers sums" })
class Adder {
  @achievesGoal({ description: "An answered sum" })
  @action({ input: Question, output: Answer })
  async answer(question: { text: string }, context: OperationContext) {
    return { text: await context.ai().withToolObject(new MathTools()).generateText(question.text) };
  }
}

const model = new ScriptedModel([ScriptedModel.toolCall("add", { a: 2, b: 3 }), ScriptedModel.text("5")]);
const platform = createAgentPlatform({ models: { default: model } });
const process = await platform.runAgent(Adder, Question.parse({ text: "2 + 3?" }));
console.log((process.result as { text: string }).text);
