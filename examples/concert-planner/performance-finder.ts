import { achievesGoal, action, agent, type OperationContext } from "../../src/index.js";
import { PerformanceList, WorksToFind } from "./domain.js";
import { RecordingCatalog } from "./recording-catalog.js";

/**
 * A one-action agent that searches the recording catalogue: the
 * ConcertPlanner calls it as a tool through `Subagent.ofClass(...)`.
 */
@agent({ name: "PerformanceFinder", description: "Finds performances" })
export class PerformanceFinder {
  @achievesGoal({ description: "Recorded performances of the requested works were found" })
  @action({ input: WorksToFind, output: PerformanceList })
  async findPerformances(works: WorksToFind, context: OperationContext): Promise<PerformanceList> {
    return context
      .ai()
      .withToolObject(new RecordingCatalog())
      .creating(PerformanceList)
      .fromPrompt(
        [
          "Find recorded performances for a concert programme.",
          "Search the catalogue for each composer, then choose the best performances, at most maxResults.",
          `Works to find: ${JSON.stringify(works)}`,
        ].join("\n"),
      );
  }
}
