// The AI SDK's equivalent of tool-program.ts: generateText with two tools on a mock model.
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

const add = tool({
  description: "Add two numbers",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a + b,
});
const echo = tool({
  description: "Echoes its input",
  inputSchema: z.object({}),
  execute: async (input) => input,
});
const model = new MockLanguageModelV3({
  doGenerate: async () => ({
    content: [{ type: "text", text: "5" }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    },
    warnings: [],
  }),
});
console.log(
  (await generateText({ model, tools: { add, echo }, prompt: "2 + 3?", stopWhen: stepCountIs(5) })).text,
);
