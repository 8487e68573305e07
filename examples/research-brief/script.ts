import type { ScriptedStepInit } from "../../src/testing/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { jsonOrUndefined, lastToolOutput, userText, withRecordedUsage } from "../script-helpers.js";
import type { ResearchBrief, Source, SourceList } from "./domain.js";

/** The remaining tokens and dollars a `process_budget` answer states. */
export function remainingBudget(report: string): { tokens: number; costUsd: number } {
  const tokens = /Token limit:[\s\S]*?Remaining: (-?[\d,]+)/.exec(report)?.[1] ?? "0";
  const cost = /Cost limit:[\s\S]*?Remaining: \$(-?[\d.]+)/.exec(report)?.[1] ?? "0";
  return { tokens: Number(tokens.replaceAll(",", "")), costUsd: Number(cost) };
}

/** The line after `<label>: ` in the prompt. */
function labelled(request: Parameters<typeof userText>[0], label: string): string {
  const text = userText(request);
  const start = text.lastIndexOf(`${label}: `);
  return start < 0 ? "" : (text.slice(start + label.length + 2).split("\n")[0] ?? "").trim();
}

/** The topic a model would take from the request. */
function topicFrom(request: string): string {
  return (
    request
      .replace(/[?.!]+$/, "")
      .trim()
      .slice(0, 80) || "research"
  );
}

/** The sources `blackboard_last` showed the model. */
function sourcesShown(request: Parameters<typeof userText>[0]): Source[] {
  const shown = lastToolOutput(request, "blackboard_last") ?? "";
  const list = jsonOrUndefined(shown.slice(shown.indexOf("\n") + 1)) as SourceList | undefined;
  return list?.sources ?? [];
}

/**
 * The replies of the recorded run. Finding sources: a progress report and a
 * library search, then the SourceList. Writing the brief: open agent_process,
 * check process_budget and choose the expensive deep_analysis only when
 * enough budget remains (else quick_summary), report that choice, read the
 * sources back from the blackboard, tell the user the headline, answer with
 * the ResearchBrief. Each reply follows what the model was sent, and reports
 * the tokens a real model would (so the budget the agent checks is really spent).
 */
export function researchBriefScript(): ScriptedStepInit[] {
  const steps: ScriptedStepInit[] = [
    (request) => {
      const topic = topicFrom(labelled(request, "Request"));
      return ScriptedModel.toolCalls([
        { name: "progress", args: { status: `Searching the library for: ${topic}` } },
        { name: "search_library", args: { query: topic } },
      ]);
    },
    (request) => {
      const sources =
        (jsonOrUndefined(lastToolOutput(request, "search_library")) as Source[] | undefined) ?? [];
      const list: SourceList = {
        topic: topicFrom(labelled(request, "Request")),
        sources: sources.slice(0, 3),
      };
      return ScriptedModel.text(JSON.stringify(list));
    },
    ScriptedModel.toolCall("agent_process", {}),
    ScriptedModel.toolCall("process_budget", {}),
    (request) => {
      const topic = labelled(request, "Topic");
      const left = remainingBudget(lastToolOutput(request, "process_budget") ?? "");
      const tokens = left.tokens.toLocaleString("en-US");
      const deep = left.tokens >= 15_000 && left.costUsd >= 0.5;
      return ScriptedModel.toolCalls(
        deep
          ? [
              {
                name: "progress",
                args: { status: `Budget OK (${tokens} tokens left): running the deep analysis` },
              },
              { name: "deep_analysis", args: { topic } },
            ]
          : [
              {
                name: "progress",
                args: { status: `Budget low (${tokens} tokens left): a quick summary instead` },
              },
              { name: "quick_summary", args: { topic } },
            ],
      );
    },
    ScriptedModel.toolCall("blackboard", {}),
    ScriptedModel.toolCall("blackboard_last", { typeName: "SourceList" }),
    (request) => {
      const [first] = sourcesShown(request);
      return ScriptedModel.toolCall("communicate", {
        message: `Brief ready: ${first?.finding ?? "no sources were found."}`,
      });
    },
    (request) => {
      const sources = sourcesShown(request);
      const deep = lastToolOutput(request, "deep_analysis");
      const analysis = deep ?? lastToolOutput(request, "quick_summary") ?? "";
      const brief: ResearchBrief = {
        topic: labelled(request, "Topic"),
        headline: sources[0]?.finding ?? "No sources were found.",
        summary: analysis.split("\n")[0] ?? "",
        analysis: deep ? "deep" : "quick",
        sources: sources.map((source) => source.title),
      };
      return ScriptedModel.text(JSON.stringify(brief));
    },
  ];
  return steps.map(withRecordedUsage);
}
