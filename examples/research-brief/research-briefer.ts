import {
  AgentProcessTools,
  achievesGoal,
  action,
  agent,
  BlackboardTools,
  CommunicateTool,
  type OperationContext,
  ProgressTool,
} from "../../src/index.js";
import { UserInput } from "../user-input.js";
import { ResearchBrief, SourceList } from "./domain.js";
import { AnalysisTools, LibraryTools } from "./library.js";

/**
 * Writes a research brief in two actions, using the four built-in tools: it
 * reports progress while searching; then, before the expensive analysis, it
 * checks its own budget (agent_process → process_budget), reads the sources
 * back from its blackboard (blackboard → blackboard_last) and tells the user
 * the headline (communicate).
 */
@agent({ name: "ResearchBriefer", description: "Researches a topic and writes a short brief" })
export class ResearchBriefer {
  @action({ input: UserInput, output: SourceList, description: "Find sources on the topic" })
  async findSources(request: UserInput, context: OperationContext): Promise<SourceList> {
    return context
      .ai()
      .withToolObject(new LibraryTools())
      .withTool(ProgressTool.create())
      .creating(SourceList)
      .fromPrompt(
        [
          "Find sources for a research brief. Report progress, search the library,",
          "then answer with the topic and the sources found.",
          `Request: ${request.content}`,
        ].join("\n"),
      );
  }

  @achievesGoal({ description: "A research brief has been written" })
  @action({
    input: SourceList,
    output: ResearchBrief,
    description: "Analyse the sources and write the brief",
  })
  async writeBrief(sources: SourceList, context: OperationContext): Promise<ResearchBrief> {
    return context
      .ai()
      .withTools(
        AgentProcessTools.create(),
        BlackboardTools.create(),
        ProgressTool.create(),
        CommunicateTool.create(),
      )
      .withToolObject(new AnalysisTools())
      .creating(ResearchBrief)
      .fromPrompt(
        [
          "Write a research brief on the topic below.",
          "deep_analysis is expensive: check process_budget first and use it only if",
          "at least 15,000 tokens and $0.50 remain; otherwise use quick_summary. Report progress.",
          "Read the sources back with blackboard_last (type SourceList), tell the user the",
          "headline with communicate, then answer with the ResearchBrief.",
          `Topic: ${sources.topic}`,
        ].join("\n"),
      );
  }
}
