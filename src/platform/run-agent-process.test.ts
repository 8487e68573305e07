import { describe, expect, it } from "vitest";
import { ReplanRequested } from "../errors/replan-requested.js";
import { TerminateAction } from "../errors/terminate-action.js";
import { TerminateAgent } from "../errors/terminate-agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import type { Agent } from "./agent.js";
import { AgentPlatform } from "./agent-platform.js";
import { Blackboard } from "./blackboard.js";
import { defineAgent } from "./define-agent.js";
import { ListOutputChannel } from "./output-channel.js";
import type { AgentProcessEvent, PlanningEvent } from "./process-event.js";
import { ProcessOptions } from "./process-options.js";
import { Verbosity } from "./verbosity.js";

class Topic {
  constructor(readonly subject: string) {}
}
class Draft {
  constructor(readonly text: string) {}
}
class Review {
  constructor(readonly verdict: string) {}
}

function platform(model = new ScriptedModel()): AgentPlatform {
  return AgentPlatform.create({ models: { main: model } });
}

function writer(overrides: { draftRun?: () => unknown } = {}): Agent {
  return defineAgent({
    name: "Writer",
    description: "Writes and reviews a draft",
    actions: [
      {
        name: "review",
        input: Draft,
        output: Review,
        achievesGoal: { description: "A reviewed draft" },
        run: (draft: Draft) => new Review(`ok: ${draft.text}`),
      },
      {
        name: "draft",
        input: Topic,
        output: Draft,
        run: overrides.draftRun ?? ((topic: Topic) => new Draft(`about ${topic.subject}`)),
      },
    ],
  });
}

function recorder(): { events: AgentProcessEvent[]; options: ProcessOptions } {
  const events: AgentProcessEvent[] = [];
  return { events, options: ProcessOptions.DEFAULT.withListener((event) => events.push(event)) };
}

describe("runAgentLoop (through AgentPlatform.runAgent)", () => {
  it("plans the actions in dependency order and completes with the goal's output", async () => {
    const { events, options } = recorder();
    const process = await platform().runAgent(writer(), new Topic("cats"), { processOptions: options });
    expect(process.status).toBe("completed");
    expect(process.history.map((entry) => entry.actionName)).toEqual(["draft", "review"]);
    expect(process.result).toEqual(new Review("ok: about cats"));
    expect(process.goal?.name).toBe("Writer.review");
    const plans = events.filter(
      (event): event is AgentProcessEvent & PlanningEvent => event.type === "plan-formulated",
    );
    expect(plans.map((plan) => plan.actions)).toEqual([["draft", "review"], ["review"]]);
    expect(plans[0]?.worldState).toContain("has:Topic");
  });

  it("replans from the real blackboard after every action", async () => {
    const agent = defineAgent({
      name: "Shortcut",
      description: "Reaches a review early",
      goals: [{ name: "reviewed", description: "Has a review", output: Review }],
      actions: [
        {
          name: "draft",
          input: Topic,
          output: Draft,
          run: (topic: Topic, context) => {
            context.blackboard.add(new Review("found one already"));
            return new Draft(topic.subject);
          },
        },
        { name: "review", input: Draft, output: Review, run: () => new Review("fresh") },
      ],
    });
    const process = await platform().runAgent(agent, new Topic("x"));
    expect(process.status).toBe("completed");
    expect(process.history.map((entry) => entry.actionName)).toEqual(["draft"]);
    expect(process.result).toEqual(new Review("found one already"));
  });

  it("prefers the cheaper plan", async () => {
    const agent = defineAgent({
      name: "Costs",
      description: "Two routes",
      goals: [{ name: "reviewed", description: "Has a review", output: Review }],
      actions: [
        { name: "expensive", input: Topic, output: Review, cost: 10, run: () => new Review("slow") },
        { name: "draft", input: Topic, output: Draft, run: () => new Draft("d") },
        { name: "review", input: Draft, output: Review, run: () => new Review("fast") },
      ],
    });
    const process = await platform().runAgent(agent, new Topic("x"));
    expect(process.history.map((entry) => entry.actionName)).toEqual(["draft", "review"]);
  });

  it("applies a ReplanRequested updater and plans again instead of failing", async () => {
    const { events, options } = recorder();
    let attempts = 0;
    const agent = writer({
      draftRun: () => {
        attempts++;
        throw new ReplanRequested("user supplied a draft", (board) => board.add(new Draft("supplied")));
      },
    });
    const process = await platform().runAgent(agent, new Topic("x"), { processOptions: options });
    expect(process.status).toBe("completed");
    expect(attempts).toBe(1);
    expect(process.history.map((entry) => [entry.actionName, entry.outcome])).toEqual([
      ["draft", "replan"],
      ["review", "succeeded"],
    ]);
    expect(process.result).toEqual(new Review("ok: supplied"));
    expect(
      events.some((event) => event.type === "replan-requested" && event.reason === "user supplied a draft"),
    ).toBe(true);
  });

  it("ends stuck, naming the unsatisfied and unreachable conditions", async () => {
    const agent = defineAgent({
      name: "Reviewer",
      description: "Reviews drafts it never gets",
      actions: [
        {
          name: "review",
          input: Draft,
          output: Review,
          achievesGoal: { description: "A review" },
          run: () => new Review("x"),
        },
      ],
    });
    const process = await platform().runAgent(agent, new Topic("x"));
    expect(process.status).toBe("stuck");
    expect(process.statusReason).toBe(
      "No plan reaches goal 'Reviewer.review': unsatisfied conditions [hasRun:review, has:Review]; no action can make [has:Draft] hold. The blackboard holds [Topic].",
    );
    expect(process.blackboard.last(Topic)).toEqual(new Topic("x"));
  });

  it("fails when an action throws, keeping the error and the blackboard", async () => {
    const boom = new Error("model unavailable");
    const process = await platform().runAgent(
      writer({
        draftRun: () => {
          throw boom;
        },
      }),
      new Topic("x"),
    );
    expect(process.status).toBe("failed");
    expect(process.failure).toBe(boom);
    expect(process.statusReason).toBe("model unavailable");
    expect(process.history.map((entry) => entry.outcome)).toEqual(["failed"]);
    expect(process.blackboard.objects).toEqual([new Topic("x")]);
  });

  it("fails with a clear error when an action returns the wrong type", async () => {
    const process = await platform().runAgent(writer({ draftRun: () => "not a draft" }), new Topic("x"));
    expect(process.status).toBe("failed");
    expect(process.statusReason).toMatch(/Action 'draft' returned a value that is not a Draft/);
  });

  it("ends terminated when the action budget is spent, keeping what was produced", async () => {
    const process = await platform().runAgent(writer(), new Topic("x"), {
      processOptions: ProcessOptions.DEFAULT.withBudget({ actions: 1 }),
    });
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("Max actions of 1 reached");
    expect(process.blackboard.last(Draft)).toEqual(new Draft("about x"));
  });

  it("ends terminated when an action's LLM calls spend the token budget", async () => {
    const model = new ScriptedModel([
      ScriptedModel.text("a draft", { usage: { inputTokens: 80, outputTokens: 40 } }),
    ]);
    const agent = writer({
      draftRun: async (...args: unknown[]) => {
        const context = args[1] as { ai(): { generateText(prompt: string): Promise<string> } };
        return new Draft(await context.ai().generateText("write"));
      },
    });
    const process = await platform(model).runAgent(agent, new Topic("x"), {
      processOptions: ProcessOptions.DEFAULT.withBudget({ tokens: 100 }),
    });
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("Max tokens of 100 reached");
    expect(process.usage.totalTokens).toBe(120);
    expect(process.blackboard.last(Draft)).toEqual(new Draft("a draft"));
  });

  it("stops an interaction mid-loop when the token budget runs out before the next LLM call", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("lookup", {}, { usage: { inputTokens: 60, outputTokens: 50 } }),
      ScriptedModel.text("never reached"),
    ]);
    const lookup = Tool.create("lookup", "Looks up", async () => ToolResult.text("found"));
    const agent = writer({
      draftRun: async (...args: unknown[]) => {
        const context = args[1] as { ai(): ReturnType<AgentPlatform["ai"]> };
        return new Draft(await context.ai().withTool(lookup).generateText("write"));
      },
    });
    const process = await platform(model).runAgent(agent, new Topic("x"), {
      processOptions: ProcessOptions.DEFAULT.withBudget({ tokens: 100 }),
    });
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("Max tokens of 100 reached");
    expect(model.requests).toHaveLength(1);
    expect(process.toolStats.get("lookup")?.calls).toBe(1);
  });

  it("ends terminated when an action throws TerminateAgent", async () => {
    const process = await platform().runAgent(
      writer({
        draftRun: () => {
          throw new TerminateAgent("user cancelled");
        },
      }),
      new Topic("x"),
    );
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("user cancelled");
  });

  it("ends only the action on TerminateAction, then plans again", async () => {
    let calls = 0;
    const agent = writer({
      draftRun: () => {
        calls++;
        throw new TerminateAction("skip");
      },
    });
    const process = await platform().runAgent(agent, new Topic("x"), {
      processOptions: ProcessOptions.DEFAULT.withBudget({ actions: 2 }),
    });
    expect(calls).toBe(2);
    expect(process.history.map((entry) => entry.outcome)).toEqual(["terminated", "terminated"]);
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("Max actions of 2 reached");
  });

  it("ends killed when the signal aborts during an action", async () => {
    const controller = new AbortController();
    const agent = writer({
      draftRun: () => {
        controller.abort(new Error("user pressed stop"));
        return new Draft("late");
      },
    });
    const process = await platform().runAgent(agent, new Topic("x"), { signal: controller.signal });
    expect(process.status).toBe("killed");
    expect(process.statusReason).toBe("user pressed stop");
    expect(process.history.map((entry) => entry.actionName)).toEqual(["draft"]);
  });

  it("reads named conditions from condition functions and from post flags", async () => {
    let approved = false;
    const agent = defineAgent({
      name: "Approvals",
      description: "Publishes approved drafts",
      conditions: { approved: () => approved },
      actions: [
        { name: "draft", input: Topic, output: Draft, post: ["drafted"], run: () => new Draft("d") },
        {
          name: "approve",
          pre: ["drafted", "!approved"],
          post: ["approved"],
          run: () => {
            approved = true;
          },
        },
        {
          name: "publish",
          input: Draft,
          output: Review,
          pre: ["approved"],
          achievesGoal: { description: "Published" },
          run: () => new Review("published"),
        },
      ],
    });
    const process = await platform().runAgent(agent, new Topic("x"));
    expect(process.status).toBe("completed");
    expect(process.history.map((entry) => entry.actionName)).toEqual(["draft", "approve", "publish"]);
    expect(process.blackboard.getCondition("drafted")).toBe(true);
  });

  it("passes several inputs in declaration order", async () => {
    const agent = defineAgent({
      name: "Combiner",
      description: "Combines",
      actions: [
        {
          name: "combine",
          input: [Topic, Draft],
          output: Review,
          achievesGoal: { description: "Combined" },
          run: (topic: Topic, draft: Draft) => new Review(`${topic.subject}+${draft.text}`),
        },
      ],
    });
    const process = await platform().runAgent(agent, new Topic("t"), {
      processOptions: new ProcessOptions({ blackboard: new Blackboard().add(new Draft("d")) }),
    });
    expect(process.result).toEqual(new Review("t+d"));
  });

  it("ends terminated before the next step when terminateAgent was requested", async () => {
    const agent = writer({
      draftRun: (...args: unknown[]) => {
        (args[1] as { process: { terminateAgent(reason: string): void } }).process.terminateAgent(
          "enough drafting",
        );
        return new Draft("d");
      },
    });
    const process = await platform().runAgent(agent, new Topic("x"));
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("enough drafting");
    expect(process.history.map((entry) => entry.actionName)).toEqual(["draft"]);
  });

  it("reports each plan to the output channel when showPlanning is on", async () => {
    const channel = new ListOutputChannel();
    const options = ProcessOptions.DEFAULT.withOutputChannel(channel).withVerbosity(
      new Verbosity().withShowPlanning(true),
    );
    await platform().runAgent(writer(), new Topic("x"), { processOptions: options });
    expect(channel.messages("logging")).toEqual([
      "Plan for goal 'Writer.review': draft -> review (cost 2)",
      "Plan for goal 'Writer.review': review (cost 1)",
    ]);
    const quiet = new ListOutputChannel();
    await platform().runAgent(writer(), new Topic("x"), {
      processOptions: ProcessOptions.DEFAULT.withOutputChannel(quiet),
    });
    expect(quiet.events).toEqual([]);
  });

  it("logs every event to the output channel with debug verbosity", async () => {
    const channel = new ListOutputChannel();
    const options = ProcessOptions.DEFAULT.withOutputChannel(channel).withVerbosity(
      new Verbosity().withDebug(true),
    );
    await platform().runAgent(writer(), new Topic("x"), { processOptions: options });
    const lines = channel.messages("logging");
    expect(lines[0]).toBe("Process started for agent Writer");
    expect(lines).toContain("Plan for goal 'Writer.review': draft -> review (cost 2)");
    expect(lines).toContain("Action draft started");
    expect(lines).toContain("Goal achieved: Writer.review");
    expect(lines.at(-1)).toMatch(/^Process completed after (<1|\d+)ms$/);
    expect(lines.filter((line) => line.startsWith("Plan for goal"))).toHaveLength(2);
  });
});
