import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { domainType } from "../tool/type-token.js";
import { Agent } from "./agent.js";
import { AgentPlatform } from "./agent-platform.js";
import { defineAction, defineAgent } from "./define-agent.js";

const Question = domainType("Question", z.object({ text: z.string() }));
const Answer = domainType("Answer", z.object({ text: z.string() }));

const answerAction = defineAction({
  name: "answer",
  input: Question,
  output: Answer,
  achievesGoal: { description: "Answered" },
  run: (question) => ({ text: `re: ${question.text}` }),
});

describe("defineAgent", () => {
  it("builds a branded, frozen agent", () => {
    const agent = defineAgent({ name: "Answerer", description: "Answers", actions: [answerAction] });
    expect(Agent.isAgent(agent)).toBe(true);
    expect(Object.isFrozen(agent)).toBe(true);
    expect(agent.actions.map((action) => action.name)).toEqual(["answer"]);
    expect(agent.goals.map((goal) => goal.name)).toEqual(["Answerer.answer"]);
  });

  it("adds goals given by output type and conditions", () => {
    const agent = defineAgent({
      name: "A",
      description: "",
      actions: [{ name: "answer", input: Question, output: Answer, run: () => ({ text: "x" }) }],
      goals: [{ name: "answered", description: "Has an answer", output: Answer, pre: ["!blocked"] }],
    });
    expect(agent.goals[0]).toMatchObject({ name: "answered", preconditions: ["!blocked", "has:Answer"] });
  });

  it("tags plain-object outputs with their domain type", async () => {
    const agent = defineAgent({ name: "Answerer", description: "Answers", actions: [answerAction] });
    const process = await AgentPlatform.create({ models: {} }).runAgent(
      agent,
      Question.create({ text: "why?" }),
    );
    expect(process.blackboard.last("Answer")).toEqual({ text: "re: why?" });
    expect(process.blackboard.get("question")).toEqual({ text: "why?" });
    expect(process.blackboard.get("it")).toEqual({ text: "why?" });
  });

  it("refuses an agent without a goal", () => {
    expect(() => defineAgent({ name: "A", description: "", actions: [] })).toThrow(ConfigurationError);
  });

  it("refuses a blank name and duplicate action names", () => {
    expect(() => defineAgent({ name: " ", description: "", actions: [answerAction] })).toThrow(
      /non-blank name/,
    );
    expect(() => defineAgent({ name: "A", description: "", actions: [answerAction, answerAction] })).toThrow(
      "Agent 'A' has two actions named 'answer'.",
    );
  });

  it("refuses two different types with one name when first planned", async () => {
    const Other = domainType("Answer", z.object({ other: z.number() }));
    const agent = defineAgent({
      name: "Confused",
      description: "",
      actions: [answerAction, { name: "other", input: Question, output: Other, run: () => ({ other: 1 }) }],
    });
    const process = await AgentPlatform.create({ models: {} }).runAgent(
      agent,
      Question.create({ text: "q" }),
    );
    expect(process.status).toBe("failed");
    expect(process.statusReason).toMatch(/uses two different types named 'Answer'/);
  });
});

describe("defineAction", () => {
  it("returns the action definition unchanged", () => {
    expect(answerAction.name).toBe("answer");
    expect(answerAction.input).toBe(Question);
  });
});
