import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { UserInput } from "../user-input.js";
import {
  Concert,
  ConcertPlanner,
  concertPlannerScript,
  example,
  PerformanceFinder,
  PerformanceList,
  WorksToFind,
} from "./index.js";

async function plan(request: string) {
  const model = new ScriptedModel(concertPlannerScript());
  const platform = AgentPlatform.create({ models: { default: model } });
  const planner = platform.deploy(ConcertPlanner);
  platform.deploy(PerformanceFinder);
  const process = await platform.runAgent(planner, UserInput.create({ content: request }));
  return { model, process };
}

const unfolded = [
  "venue_tools",
  "PerformanceFinder",
  "find_venues",
  "check_availability",
  "venue_tools_context",
];

describe("ConcertPlanner (on its recorded script)", () => {
  it("offers the facade and the subagent, then the facade's tools once it is opened", async () => {
    const { model, process } = await plan("A Mozart evening in Vienna for 500 people");
    expect(process.status).toBe("completed");
    expect(model.remaining).toBe(0);
    expect(model.toolNamesPerRequest).toEqual([
      [],
      ["venue_tools", "PerformanceFinder"],
      unfolded,
      unfolded,
      unfolded,
      ["search_recordings"],
      ["search_recordings"],
      unfolded,
    ]);
  });

  it("gives the subagent the WorksToFind schema as its input", async () => {
    const { model } = await plan("A Mozart evening");
    const subagent = model.requests[1]?.tools.find((tool) => tool.name === "PerformanceFinder");
    expect(subagent?.description).toBe("Finds performances");
    expect(subagent?.inputSchema).toEqual(WorksToFind.jsonSchema);
  });

  it("assembles a concert from the request's composers, city and audience", async () => {
    const { process } = await plan("Haydn and Beethoven in Paris for 300 listeners");
    const concert = process.result as Concert;
    expect(Concert.is(concert)).toBe(true);
    expect(concert.venue).toBe("Salle Cortot");
    expect(concert.program.map((item) => item.composer)).toEqual(["Haydn", "Haydn", "Beethoven"]);
  });

  it("leaves the subagent's PerformanceList on the planner's blackboard", async () => {
    const { process } = await plan("A Mozart evening");
    const list = process.blackboard.last(PerformanceList);
    expect(list?.performances.map((performance) => performance.id)).toEqual([
      "rec-101",
      "rec-102",
      "rec-103",
    ]);
    expect(process.blackboard.count(WorksToFind)).toBe(0);
  });

  it("is described for the CLI", () => {
    expect(example.name).toBe("concert-planner");
    expect(example.agents).toEqual([ConcertPlanner, PerformanceFinder]);
    expect(UserInput.is(example.input("x"))).toBe(true);
  });
});
