import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { BudgetExceededError } from "../../src/errors/budget-exceeded-error.js";
import type { ToolLoopEvent } from "../../src/loop/tool-loop.js";
import { AgentPlatform } from "../../src/platform/agent-platform.js";
import { defineAgent } from "../../src/platform/define-agent.js";
import { ProcessOptions } from "../../src/platform/process-options.js";
import { startDeadMcpServer } from "./dead-mcp-server.js";
import { FuzzModel, type FuzzReply } from "./fuzz-model.js";
import { Account, FuzzWorld, fuzzTools, LOCKED_ANSWER, PLAYBOOK_TOOL_NAMES } from "./fuzz-tools.js";
import { checkRun, type RunEnding } from "./loop-properties.js";
import { fuzzRuns, fuzzTimeoutMs, loopSettings, nestedReplies, replies } from "./model-replies.js";

// A PromptRunner inside an agent process (platform.runAgent) against generated
// model replies: the loop's properties, plus the process's token budget.

class Ask {
  constructor(readonly question: string) {}
}
class Answer {
  constructor(readonly text: string) {}
}

const tokensOf = (reply: FuzzReply) => (reply.usage?.inputTokens ?? 0) + (reply.usage?.outputTokens ?? 0);

// One real MCP server for the whole file, killed before the first case (its tool stays offered).
let stopDeadMcpServer: (() => Promise<void>) | undefined;
beforeAll(async () => {
  stopDeadMcpServer = await startDeadMcpServer();
}, 20_000);
afterAll(async () => {
  await stopDeadMcpServer?.();
});

/**
 * The playbook's nested loops: never sent the context's secret, and every answer
 * to the locked `summarize` is the locked text, an argument error, or (once
 * `search` ran in that loop) its own result. That it never ran while locked is
 * checked by the tool itself (world.problems).
 */
function checkNested(nested: FuzzModel, world: FuzzWorld): void {
  nested.requests.forEach((request, index) => {
    if (request.wire.includes(world.secret))
      throw new Error(`nested request ${index} carries the context's secret`);
    for (const message of request.prompt) {
      if (message.role !== "tool") continue;
      for (const part of message.content) {
        if (part.type !== "tool-result" || part.toolName !== "summarize") continue;
        const { output } = part;
        const value = "value" in output ? String(output.value) : "";
        const ok =
          (output.type === "text" && (value === LOCKED_ANSWER || value === "the summary")) ||
          (output.type === "error-text" && /^Invalid (JSON )?arguments for tool 'summarize'/.test(value));
        if (!ok)
          throw new Error(
            `nested request ${index}: summarize answered ${JSON.stringify(output).slice(0, 200)}`,
          );
      }
    }
  });
}

const RUNS = fuzzRuns(60);

describe("a PromptRunner in an agent process under generated model replies", () => {
  it(
    "keeps the loop's properties, and the token budget stops it",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          replies,
          loopSettings,
          fc.integer({ min: 0, max: 20_000 }),
          nestedReplies(PLAYBOOK_TOOL_NAMES),
          async (script, settings, tokenBudget, nestedScript) => {
            const world = new FuzzWorld();
            const model = new FuzzModel(script);
            // The playbook's nested loops, one after another, replay these (no token counts, so
            // the budget check below sees only the outer loop's tokens).
            const nested = new FuzzModel(nestedScript);
            const agent = defineAgent({
              name: "Fuzzed",
              description: "Asks the model, which may do anything",
              actions: [
                {
                  name: "ask",
                  input: Ask,
                  output: Answer,
                  achievesGoal: { description: "An answer" },
                  run: async (ask, context) =>
                    new Answer(
                      await context
                        .ai()
                        .withTools(fuzzTools(world))
                        .withToolChainingFrom(Account)
                        .withToolCallContext(world.context)
                        .withMaxIterations(settings.maxIterations)
                        .generateText(ask.question),
                    ),
                },
              ],
            });
            const events: ToolLoopEvent[] = [];
            const processOptions = ProcessOptions.DEFAULT.withBudget({ tokens: tokenBudget }).withListener(
              (event) => {
                if ("loopId" in event) events.push(event as ToolLoopEvent);
              },
            );
            const platform = AgentPlatform.create({
              models: { main: model, playbook: nested },
              roles: { default: "main" },
            });
            const process = await platform.runAgent(agent, new Ask("Do the thing."), {
              processOptions,
              signal: world.abort.signal,
            });

            // The budget: no LLM call once the tokens used reach it; terminated only when they did.
            let used = 0;
            model.requests.forEach((_request, index) => {
              if (used >= tokenBudget)
                throw new Error(`LLM call ${index} made with ${used} of ${tokenBudget} tokens used`);
              used += tokensOf(model.replyAt(index));
            });
            if (process.status === "terminated" && used < tokenBudget)
              throw new Error(
                `terminated (${process.statusReason}) with ${used} of ${tokenBudget} tokens used`,
              );

            let ending: RunEnding;
            if (process.status === "completed") ending = { kind: "answer" };
            else if (process.status === "killed")
              ending = { kind: "error", error: world.abort.signal.reason };
            else if (process.status === "terminated")
              ending = { kind: "error", error: new BudgetExceededError("tokens", tokenBudget, used) };
            else ending = { kind: "error", error: process.failure };
            checkRun(
              {
                model,
                world,
                events,
                promptLength: model.requests[0]?.prompt.length ?? 0,
                maxIterations: settings.maxIterations,
                isDocumentedError: (error) => BudgetExceededError.isInstance(error),
              },
              ending,
            );
            checkNested(nested, world);
          },
        ),
        { numRuns: RUNS },
      );
    },
    fuzzTimeoutMs(RUNS, 30),
  );
});
