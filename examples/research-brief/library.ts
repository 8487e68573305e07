import { z } from "zod";
import { AgentProcess, llmTool } from "../../src/index.js";
import { type Source, SourceList } from "./domain.js";

/** A small, fixed library so the example runs the same everywhere. */
const LIBRARY: readonly (Source & { readonly keywords: readonly string[] })[] = [
  {
    title: "Sleep and Memory Consolidation",
    authors: "Walker & Stickgold",
    year: 2004,
    finding: "Sleep after learning strengthens new memories.",
    keywords: ["sleep", "memory", "learning"],
  },
  {
    title: "Naps and Afternoon Alertness",
    authors: "Mednick et al.",
    year: 2003,
    finding: "A 20-minute nap restores alertness as well as caffeine does.",
    keywords: ["sleep", "nap", "alertness", "coffee", "caffeine"],
  },
  {
    title: "Caffeine Timing and Sleep Quality",
    authors: "Drake et al.",
    year: 2013,
    finding: "Caffeine six hours before bed still cuts sleep by an hour.",
    keywords: ["coffee", "caffeine", "sleep"],
  },
  {
    title: "Aerobic Exercise and the Hippocampus",
    authors: "Erickson et al.",
    year: 2011,
    finding: "A year of walking grew the hippocampus by about 2%.",
    keywords: ["exercise", "memory", "brain", "walking"],
  },
  {
    title: "Spaced Repetition in the Classroom",
    authors: "Cepeda et al.",
    year: 2008,
    finding: "Spreading study sessions out doubles long-term recall.",
    keywords: ["learning", "memory", "study"],
  },
];

/** The sources whose keywords the query mentions, best match first (all of them when none match). */
export function searchLibrary(query: string): Source[] {
  const words = query.toLowerCase().split(/[^a-z]+/);
  const scored = LIBRARY.map((entry) => ({
    entry,
    score: entry.keywords.filter((keyword) => words.includes(keyword)).length,
  })).filter(({ score }) => score > 0);
  const found =
    scored.length > 0 ? scored.sort((a, b) => b.score - a.score).map(({ entry }) => entry) : LIBRARY;
  return found.map(({ keywords: _keywords, ...source }) => source);
}

/** The sources the current process found (the latest SourceList on its blackboard). */
function sourcesOnBlackboard(): Source[] {
  return AgentProcess.current()?.blackboard.last(SourceList)?.sources ?? [];
}

/** The library search tool. */
export class LibraryTools {
  @llmTool({
    name: "search_library",
    description: "Search the library for sources on a topic",
    input: z.object({ query: z.string().describe("Keywords describing the topic") }),
  })
  search({ query }: { query: string }): string {
    return JSON.stringify(searchLibrary(query));
  }
}

/** Two ways to analyse the sources: one thorough and expensive, one cheap. */
export class AnalysisTools {
  @llmTool({
    name: "deep_analysis",
    description:
      "Expensive: cross-checks every source found against the others. Check the budget (process_budget) before calling.",
    input: z.object({ topic: z.string().describe("The research topic") }),
  })
  deep({ topic }: { topic: string }): string {
    const sources = sourcesOnBlackboard();
    const years = sources.map((source) => source.year);
    return [
      `Deep analysis of ${topic}: ${sources.length} source(s) cross-checked, ${Math.min(...years)}–${Math.max(...years)}.`,
      ...sources.map((source) => `- ${source.authors} (${source.year}) agrees: ${source.finding}`),
      "The findings are consistent.",
    ].join("\n");
  }

  @llmTool({
    name: "quick_summary",
    description: "Cheap: summarises the first source found",
    input: z.object({ topic: z.string().describe("The research topic") }),
  })
  quick({ topic }: { topic: string }): string {
    const [first] = sourcesOnBlackboard();
    return first
      ? `Quick summary of ${topic}: ${first.finding}`
      : `Quick summary of ${topic}: no sources found.`;
  }
}
