import { describe, expect, it } from "vitest";
import { agentPlanning, planGoal } from "./agent-planning.js";
import { defineAgent } from "./define-agent.js";
import type { GoapGoal, GoapPlan } from "./planning/goap-planner.js";

class Topic {}
class Draft {}
class Review {}

const writer = defineAgent({
  name: "Writer",
  description: "Drafts, then reviews",
  actions: [
    { name: "draft", input: Topic, output: Draft, run: () => new Draft() },
    {
      name: "review",
      input: Draft,
      output: Review,
      achievesGoal: { description: "Reviewed" },
      run: () => new Review(),
    },
  ],
});

function only<T>(values: Iterable<T>): T {
  const [value] = values;
  return value as T;
}

describe("planGoal", () => {
  it("plans once per distinct relevant state: equal states get the same (frozen) plan", () => {
    const planning = agentPlanning(writer);
    const goal = only(planning.goals.values()) as GoapGoal;
    const asked: string[] = [];
    const holds = (trueConditions: string[]) => (condition: string) => {
      asked.push(condition);
      return trueConditions.includes(condition);
    };
    const first = planGoal(planning, holds(["has:Topic"]), goal, new Set());
    const second = planGoal(planning, holds(["has:Topic"]), goal, new Set());
    expect(second).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen((first as GoapPlan).actions)).toBe(true);
    expect((first as GoapPlan).actions.map((action) => action.name)).toEqual(["draft", "review"]);
    const later = planGoal(planning, holds(["has:Topic", "has:Draft", "hasRun:draft"]), goal, new Set());
    expect((later as GoapPlan).actions.map((action) => action.name)).toEqual(["review"]);
    // Only the goal's relevant conditions are read.
    expect(new Set(asked)).toEqual(new Set(planning.planner.relevantConditions(goal)));
  });

  it("keys the memo by the excluded actions too", () => {
    const planning = agentPlanning(writer);
    const goal = only(planning.goals.values()) as GoapGoal;
    const holds = (condition: string) => condition === "has:Topic";
    expect(planGoal(planning, holds, goal, new Set()).kind).toBe("plan");
    expect(planGoal(planning, holds, goal, new Set(["draft"])).kind).toBe("no-plan");
  });

  it("plans afresh for goals that depend on more than 64 conditions", () => {
    const steps = Array.from({ length: 40 }, (_, index) => ({
      name: `step${index}`,
      input: index === 0 ? Topic : Draft,
      output: Draft,
      pre: [`done${index - 1}`].filter(() => index > 0),
      post: [`done${index}`],
      run: () => new Draft(),
    }));
    const long = defineAgent({
      name: "Long",
      description: "Forty steps",
      actions: [
        ...steps,
        {
          name: "finish",
          input: Draft,
          output: Review,
          pre: ["done39"],
          achievesGoal: { description: "Done" },
          run: () => new Review(),
        },
      ],
    });
    const planning = agentPlanning(long);
    const goal = only(planning.goals.values()) as GoapGoal;
    expect(planning.planner.relevantConditions(goal).length).toBeGreaterThan(64);
    const holds = (condition: string) => condition === "has:Topic";
    const first = planGoal(planning, holds, goal, new Set());
    expect((first as GoapPlan).actions).toHaveLength(41);
    expect(planGoal(planning, holds, goal, new Set())).not.toBe(first);
  });
});
