import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { runToolLoop, type ToolLoopEvent } from "../../src/loop/tool-loop.js";
import { startDeadMcpServer } from "./dead-mcp-server.js";
import { FuzzModel } from "./fuzz-model.js";
import { FuzzWorld, fuzzTools } from "./fuzz-tools.js";
import { checkRun, type RunEnding } from "./loop-properties.js";
import { fuzzRuns, fuzzTimeoutMs, loopSettings, replies } from "./model-replies.js";

// runToolLoop against generated model replies (FUZZ_RUNS=10000 via `npm run fuzz`).

const prompt: LanguageModelV3Prompt = [
  { role: "system", content: "You use tools." },
  { role: "user", content: [{ type: "text", text: "Do the thing." }] },
];

// One real MCP server for the whole file, killed before the first case (its tool stays offered).
let stopDeadMcpServer: (() => Promise<void>) | undefined;
beforeAll(async () => {
  stopDeadMcpServer = await startDeadMcpServer();
}, 20_000);
afterAll(async () => {
  await stopDeadMcpServer?.();
});

const RUNS = fuzzRuns(150);

describe("runToolLoop under generated model replies", () => {
  it(
    "keeps its properties whatever the model sends",
    async () => {
      await fc.assert(
        fc.asyncProperty(replies, loopSettings, async (script, settings) => {
          const world = new FuzzWorld();
          const model = new FuzzModel(script);
          const events: ToolLoopEvent[] = [];
          let ending: RunEnding;
          try {
            const result = await runToolLoop({
              model,
              prompt,
              tools: fuzzTools(world),
              context: world.context,
              signal: world.abort.signal,
              maxIterations: settings.maxIterations,
              maxUnknownToolRetries: settings.maxUnknownToolRetries,
              parallelToolCalls: settings.parallelToolCalls,
              onEvent: (event) => events.push(event),
              ...(settings.stream ? { onTextDelta: () => {} } : {}),
            });
            ending = { kind: "answer", transcript: result.prompt };
          } catch (error) {
            ending = { kind: "error", error };
          }
          checkRun(
            { model, world, events, promptLength: prompt.length, maxIterations: settings.maxIterations },
            ending,
          );
        }),
        { numRuns: RUNS },
      );
    },
    fuzzTimeoutMs(RUNS, 10),
  );
});
