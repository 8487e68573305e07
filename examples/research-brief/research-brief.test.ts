import { describe, expect, it } from "vitest";
import { AgentPlatform, ListOutputChannel, ProcessOptions } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { UserInput } from "../user-input.js";
import {
  example,
  ResearchBrief,
  ResearchBriefer,
  remainingBudget,
  researchBriefScript,
  SourceList,
} from "./index.js";

async function brief(request: string, processOptions = ProcessOptions.DEFAULT) {
  const model = new ScriptedModel(researchBriefScript());
  const channel = new ListOutputChannel();
  const platform = AgentPlatform.create({ models: { default: model } });
  const process = await platform.runAgent(ResearchBriefer, UserInput.create({ content: request }), {
    processOptions: processOptions.withOutputChannel(channel),
  });
  return { model, process, channel };
}

/** The `Remaining:` tokens of the (first) process_budget answer the model received. */
function remainingTokensAnswered(model: ScriptedModel): string | undefined {
  const answer = model.requests
    .flatMap((request) => request.toolResults)
    .find((part) => part.toolName === "process_budget")?.output;
  const text = answer?.type === "text" ? answer.value : "";
  return /Token limit:[\s\S]*?Remaining: ([\d,]+)/.exec(text)?.[1];
}

const builtins = ["agent_process", "blackboard", "progress", "communicate", "deep_analysis", "quick_summary"];
const processTools = [
  "process_status",
  "process_budget",
  "process_cost",
  "process_history",
  "process_tools_stats",
  "process_models",
  "agent_process_context",
];
const blackboardTools = [
  "blackboard_list",
  "blackboard_get",
  "blackboard_last",
  "blackboard_describe",
  "blackboard_count",
  "blackboard_context",
];

describe("ResearchBriefer (on its recorded script)", () => {
  it("reports progress, checks its budget, reads its blackboard and messages the user", async () => {
    const { model, process, channel } = await brief("How does sleep affect memory?");
    expect(process.status).toBe("completed");
    expect(model.remaining).toBe(0);
    expect(model.toolNamesPerRequest).toEqual([
      ["search_library", "progress"],
      ["search_library", "progress"],
      builtins,
      [...builtins, ...processTools],
      [...builtins, ...processTools],
      [...builtins, ...processTools],
      [...builtins, ...processTools, ...blackboardTools],
      [...builtins, ...processTools, ...blackboardTools],
      [...builtins, ...processTools, ...blackboardTools],
    ]);
    const [searching, budget] = channel.messages("progress");
    expect(searching).toBe("Searching the library for: How does sleep affect memory");
    // The tokens left are what process_budget answered: the recorded calls before it were really counted.
    const left = /^Budget OK \(([\d,]+) tokens left\): running the deep analysis$/.exec(budget ?? "")?.[1];
    expect(left).toBe(remainingTokensAnswered(model));
    expect(Number(left?.replaceAll(",", ""))).toBeLessThan(1_000_000);
    expect(channel.messages("progress")).toHaveLength(2);
    expect(channel.messages("message")).toEqual([
      "Brief ready: Sleep after learning strengthens new memories.",
    ]);
    const result = process.result as ResearchBrief;
    expect(ResearchBrief.is(result)).toBe(true);
    expect(result.analysis).toBe("deep");
    expect(result.sources).toEqual(
      process.blackboard.last(SourceList)?.sources.map((source) => source.title),
    );
    expect(process.toolStats.get("deep_analysis")?.calls).toBe(1);
    expect(process.toolStats.has("quick_summary")).toBe(false);
  });

  it("takes the cheap analysis when its token budget runs low", async () => {
    const { model, process, channel } = await brief(
      "Does coffee hurt sleep?",
      ProcessOptions.DEFAULT.withBudget({ tokens: 16_000 }),
    );
    expect(process.status).toBe("completed");
    const left = /^Budget low \(([\d,]+) tokens left\): a quick summary instead$/.exec(
      channel.messages("progress")[1] ?? "",
    )?.[1];
    expect(left).toBe(remainingTokensAnswered(model));
    expect(Number(left?.replaceAll(",", ""))).toBeLessThan(15_000);
    const result = process.result as ResearchBrief;
    expect(result.analysis).toBe("quick");
    expect(result.summary).toBe(
      "Quick summary of Does coffee hurt sleep: A 20-minute nap restores alertness as well as caffeine does.",
    );
    expect(process.toolStats.has("deep_analysis")).toBe(false);
  });

  it("reads the remaining tokens and dollars from a process_budget answer", () => {
    expect(
      remainingBudget(
        "Budget Status:\n\nCost limit: $2.0000\n  Used: $1.9000\n  Remaining: $0.1000\n\nToken limit: 10,000\n  Used: 2,500\n  Remaining: 7,500",
      ),
    ).toEqual({ tokens: 7500, costUsd: 0.1 });
  });

  it("is described for the CLI", () => {
    expect(example.name).toBe("research-brief");
    expect(example.agents).toEqual([ResearchBriefer]);
    expect(UserInput.is(example.input("x"))).toBe(true);
  });
});
