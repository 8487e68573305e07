import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { MaxIterationsExceededError } from "../errors/max-iterations-exceeded-error.js";
import { ReplanRequested } from "../errors/replan-requested.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import type { Agent } from "./agent.js";
import { AgentPlatform } from "./agent-platform.js";
import { AgentProcess } from "./agent-process.js";
import { defineAgent } from "./define-agent.js";
import type { OperationContext } from "./operation-context.js";
import { ProcessOptions } from "./process-options.js";

class Topic {
  constructor(readonly subject: string) {}
}
class Draft {
  constructor(readonly text: string) {}
}
class Review {
  constructor(readonly verdict: string) {}
}

/** Draft (through `draft`), then review: the goal is a Review. */
function writer(draft: (topic: Topic, context: OperationContext) => unknown): Agent {
  return defineAgent({
    name: "Writer",
    description: "Writes and reviews a draft",
    actions: [
      { name: "draft", input: Topic, output: Draft, run: draft },
      {
        name: "review",
        input: Draft,
        output: Review,
        achievesGoal: { description: "A reviewed draft" },
        run: (value: Draft) => new Review(`ok: ${value.text}`),
      },
    ],
  });
}

describe("runAgentLoop budgets and isolation (through AgentPlatform.runAgent)", () => {
  it("ends terminated with the reference's message when the cost budget is spent, keeping the blackboard", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.text("a costly draft", { usage: { inputTokens: 1_000_000, outputTokens: 500_000 } }),
    );
    const platform = AgentPlatform.create({
      models: { main: model },
      prices: { scripted: { inputPerMillion: 1, outputPerMillion: 4 } },
    });
    const agent = writer(async (_topic, context) => new Draft(await context.ai().generateText("write")));
    const process = await platform.runAgent(agent, new Topic("x"), {
      processOptions: ProcessOptions.DEFAULT.withBudget({ cost: 2, tokens: 10_000_000 }),
    });
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("Exceeded budget of $2.0000: cost=$3.0000");
    expect(process.costUsd).toBe(3);
    expect(process.history.map((entry) => entry.actionName)).toEqual(["draft"]);
    expect(process.blackboard.objects).toEqual([new Topic("x"), new Draft("a costly draft")]);
  });

  it("fails with the loop's limit error when an action's tool loop reaches maxIterations, keeping what tools added", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("note", { text: "one" }),
      ScriptedModel.toolCall("note", { text: "two" }),
    ]);
    const note = Tool.create("note", "Notes a finding", async (input) => {
      AgentProcess.current()?.blackboard.add(JSON.parse(input).text);
      return ToolResult.text("noted");
    });
    const agent = writer(
      async (_topic, context) =>
        new Draft(await context.ai().withTool(note).withMaxIterations(2).generateText("research")),
    );
    const process = await AgentPlatform.create({ models: { main: model } }).runAgent(agent, new Topic("x"));
    expect(process.status).toBe("failed");
    expect(MaxIterationsExceededError.isInstance(process.failure)).toBe(true);
    expect(process.statusReason).toMatch(/^Tool loop exceeded maximum iterations \(2\)/);
    expect(process.blackboard.objects).toEqual([new Topic("x"), "one", "two"]);
  });

  it("completes rather than terminates when the goal already holds as the budget runs out", async () => {
    const process = await AgentPlatform.create({ models: {} }).runAgent(
      writer((topic) => new Draft(topic.subject)),
      new Topic("x"),
      { processOptions: ProcessOptions.DEFAULT.withBudget({ actions: 2 }) },
    );
    expect(process.status).toBe("completed");
    expect(process.result).toEqual(new Review("ok: x"));
  });

  it("ends stuck, naming the missing type, when the input is of a type no action consumes", async () => {
    const process = await AgentPlatform.create({ models: {} }).runAgent(
      writer(() => new Draft("never")),
      { unrelated: true },
    );
    expect(process.status).toBe("stuck");
    expect(process.statusReason).toBe(
      "No plan reaches goal 'Writer.review': unsatisfied conditions [hasRun:review, has:Review]; no action can make [has:Topic] hold. The blackboard holds [Object].",
    );
    expect(process.history).toEqual([]);
    expect(process.blackboard.get("it")).toEqual({ unrelated: true });
  });

  it("gives each of 100 concurrent agent processes only its own process and blackboard", async () => {
    const leaks: string[] = [];
    const agent = writer(async (topic, context) => {
      for (let step = 0; step < 3; step++) {
        await delay((Number(topic.subject) * 7 + step) % 4);
        const current = AgentProcess.current();
        if (current !== context.process) leaks.push(`${topic.subject}: another process`);
        if (current?.blackboard.last(Topic) !== topic) leaks.push(`${topic.subject}: another blackboard`);
      }
      return new Draft(topic.subject);
    });
    const platform = AgentPlatform.create({ models: {} });
    const topics = Array.from({ length: 100 }, (_, index) => new Topic(String(index)));
    const processes = await Promise.all(topics.map((topic) => platform.runAgent(agent, topic)));
    expect(leaks).toEqual([]);
    processes.forEach((process, index) => {
      expect(process.status).toBe("completed");
      expect(process.result).toEqual(new Review(`ok: ${index}`));
      expect(process.blackboard.all(Draft)).toEqual([new Draft(String(index))]);
    });
    expect(new Set(processes.map((process) => process.id)).size).toBe(100);
    expect(AgentProcess.current()).toBeUndefined();
  });
});

describe("runAgentLoop failure paths (through AgentPlatform.runAgent)", () => {
  it("fails, recording the action as failed, when a ReplanRequested updater throws", async () => {
    const broken = new Error("updater broke");
    const process = await AgentPlatform.create({ models: {} }).runAgent(
      writer(() => {
        throw new ReplanRequested("try again", () => {
          throw broken;
        });
      }),
      new Topic("x"),
    );
    expect(process.status).toBe("failed");
    expect(process.failure).toBe(broken);
    expect(process.history.map((entry) => [entry.actionName, entry.outcome])).toEqual([["draft", "failed"]]);
    expect(process.blackboard.objects).toEqual([new Topic("x")]);
  });

  it("runs an action that asked to replan again when no plan exists without it", async () => {
    let attempts = 0;
    const process = await AgentPlatform.create({ models: {} }).runAgent(
      writer((topic) => {
        attempts++;
        if (attempts === 1) throw new ReplanRequested("not yet", () => {});
        return new Draft(topic.subject);
      }),
      new Topic("x"),
    );
    expect(process.status).toBe("completed");
    expect(process.history.map((entry) => [entry.actionName, entry.outcome])).toEqual([
      ["draft", "replan"],
      ["draft", "succeeded"],
      ["review", "succeeded"],
    ]);
  });
});
