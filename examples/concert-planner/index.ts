import type { ExampleDefinition } from "../../src/cli/example-definition.js";
import { catalogEntry } from "../catalog.js";
import { RECORDED_WITH } from "../script-helpers.js";
import { UserInput } from "../user-input.js";
import { ConcertPlanner } from "./concert-planner.js";
import type { Concert } from "./domain.js";
import { PerformanceFinder } from "./performance-finder.js";
import { concertPlannerScript } from "./script.js";

export { ConcertPlanner } from "./concert-planner.js";
export { Concert, ConcertPlan, Performance, PerformanceList, WorksToFind } from "./domain.js";
export { PerformanceFinder } from "./performance-finder.js";
export { RecordingCatalog } from "./recording-catalog.js";
export { concertPlannerScript } from "./script.js";
export { venueTools } from "./venue-tools.js";

/** `embabel-ts run concert-planner "<request>"`. */
export const example: ExampleDefinition = {
  ...catalogEntry("concert-planner"),
  agents: [ConcertPlanner, PerformanceFinder],
  input: (text) => UserInput.create({ content: text }),
  recordedWith: RECORDED_WITH,
  script: concertPlannerScript,
  formatResult(result) {
    const concert = result as Concert;
    if (!concert?.program) return JSON.stringify(result, null, 2);
    return [
      `${concert.title}`,
      `${concert.venue}, ${concert.date} (${concert.totalMinutes} min)`,
      ...concert.program.map(
        (item) => `  • ${item.composer}: ${item.work} (${item.performers}, ${item.minutes} min)`,
      ),
      concert.notes,
    ].join("\n");
  },
};
