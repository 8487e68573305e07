// Two agentic tools of one parallel round that both wait for a person: each
// nested loop's journal slot is keyed by the outer call that runs it, so on
// resuming each agentic tool gets its own nested loop back, whichever starts
// first (here the order is reversed on purpose between the runs).
import { setTimeout as sleep } from "node:timers/promises";
import type { LanguageModelV3ToolResultPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runToolLoop } from "../loop/tool-loop.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { defineAgent } from "../platform/define-agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedRequest } from "../testing/scripted-step.js";
import { DelegatingTool } from "../tool/abstract-tool.js";
import type { ToolCallOptions } from "../tool/tool.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { SimpleAgenticTool } from "./simple-agentic-tool.js";

const Task = domainType("Task", z.object({ text: z.string() }));
const Answer = domainType("Answer", z.object({ text: z.string() }));

/** `delegate`, started after `delayMs()` milliseconds. */
class Delayed extends DelegatingTool {
  constructor(
    delegate: Tool,
    private readonly delayMs: () => number,
  ) {
    super(delegate);
  }

  override async call(
    input: string,
    context = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    await sleep(this.delayMs());
    return super.call(input, context, options);
  }
}

/** `pay_<side>`, approval-gated, recording each run. */
function payTool(side: string, runs: string[]): Tool {
  return Tool.requireApproval(
    Tool.fromFunction(
      `pay_${side}`,
      `Pays for ${side}`,
      z.object({ cents: z.number().int() }),
      z.string(),
      (input) => {
        runs.push(`${side}:${input.cents}`);
        return `paid ${side} ${input.cents}`;
      },
    ),
  );
}

const textOf = (part: LanguageModelV3ToolResultPart | undefined): string => {
  const output = part?.output as { value?: unknown } | undefined;
  return typeof output?.value === "string" ? output.value : JSON.stringify(output?.value);
};

/** The model of every loop: the outer one calls alpha and beta at once; each nested one pays, then reports. */
function reply(request: ScriptedRequest) {
  if (request.toolNames.includes("alpha")) {
    return request.toolResults.length === 0
      ? ScriptedModel.toolCalls([
          { name: "alpha", args: { task: "pay a" } },
          { name: "beta", args: { task: "pay b" } },
        ])
      : ScriptedModel.text(request.toolResults.map((part) => `${part.toolName}=${textOf(part)}`).join(" | "));
  }
  const side = request.toolNames.includes("pay_a") ? "a" : "b";
  return request.toolResults.length === 0
    ? ScriptedModel.toolCall(`pay_${side}`, { cents: side === "a" ? 100 : 200 })
    : ScriptedModel.text(`${side} reports: ${textOf(request.toolResults[0])}`);
}

describe("two agentic tools waiting in one parallel round", () => {
  it("each resumes its own nested loop, even when they start in the other order", async () => {
    const runs: string[] = [];
    let resumed = false;
    const alpha = new Delayed(
      SimpleAgenticTool.create("alpha", "Pays for a").withTools(payTool("a", runs)),
      () => (resumed ? 40 : 0),
    );
    const beta = new Delayed(
      SimpleAgenticTool.create("beta", "Pays for b").withTools(payTool("b", runs)),
      () => (resumed ? 0 : 40),
    );
    const model = new ScriptedModel(Array.from({ length: 20 }, () => reply));
    const platform = AgentPlatform.create({ models: { main: model } });
    const agent = defineAgent({
      name: "Treasurer",
      description: "Pays",
      actions: [
        {
          name: "pay",
          input: Task,
          output: Answer,
          achievesGoal: { description: "Paid" },
          run: async (task, context) => {
            const result = await runToolLoop({
              model,
              prompt: [{ role: "user", content: [{ type: "text", text: task.text }] }],
              tools: [alpha, beta],
              parallelToolCalls: true,
              waits: context.process.loopWaits,
            });
            return { text: result.text };
          },
        },
      ],
    });
    let process: AgentProcess = await platform.runAgent(agent, Task.create({ text: "pay both" }));
    const asked: string[] = [];
    for (let answers = 0; process.status === "waiting" && answers < 4; answers += 1) {
      const request = process.awaiting[0];
      if (request?.kind !== "approval") throw new Error(`not an approval: ${JSON.stringify(request)}`);
      asked.push(request.toolName);
      resumed = true;
      process = await platform.respond(process.id, request.id, { approved: true });
    }
    expect(process.status, String(process.statusReason)).toBe("completed");
    expect([...asked].sort()).toEqual(["pay_a", "pay_b"]);
    expect([...runs].sort()).toEqual(["a:100", "b:200"]);
    expect(process.result).toEqual({
      text: "alpha=a reports: paid a 100 | beta=b reports: paid b 200",
    });
  });
});
