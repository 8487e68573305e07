import type { ExampleDefinition } from "../../src/cli/example-definition.js";
import { catalogEntry } from "../catalog.js";
import { RECORDED_WITH } from "../script-helpers.js";
import { UserInput } from "../user-input.js";
import type { ResearchBrief } from "./domain.js";
import { ResearchBriefer } from "./research-briefer.js";
import { researchBriefScript } from "./script.js";

export { ResearchBrief, type Source, SourceList } from "./domain.js";
export { AnalysisTools, LibraryTools, searchLibrary } from "./library.js";
export { ResearchBriefer } from "./research-briefer.js";
export { remainingBudget, researchBriefScript } from "./script.js";

/** `embabel-ts run research-brief "<question>"`. */
export const example: ExampleDefinition = {
  ...catalogEntry("research-brief"),
  agents: [ResearchBriefer],
  input: (text) => UserInput.create({ content: text }),
  recordedWith: RECORDED_WITH,
  script: researchBriefScript,
  formatResult(result) {
    const brief = result as ResearchBrief;
    if (!brief?.headline) return JSON.stringify(result, null, 2);
    return [
      brief.headline,
      brief.summary,
      `(${brief.analysis} analysis)`,
      ...brief.sources.map((title) => `  • ${title}`),
    ].join("\n");
  },
};
