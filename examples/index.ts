import type { ExampleDefinition } from "../src/cli/example-definition.js";
import { example as codeMode } from "./code-mode/index.js";
import { example as concertPlanner } from "./concert-planner/index.js";
import { example as mcpWeather } from "./mcp-weather/index.js";
import { example as refundDesk } from "./refund-desk/index.js";
import { example as releaseNotes } from "./release-notes/index.js";
import { example as researchBrief } from "./research-brief/index.js";
import { example as starNews } from "./star-news/index.js";
import { example as supportDesk } from "./support-desk/index.js";

/** The examples `embabel-ts run` knows by name, in the order `embabel-ts list` shows them. */
export const EXAMPLES: readonly ExampleDefinition[] = [
  starNews,
  concertPlanner,
  researchBrief,
  mcpWeather,
  supportDesk,
  releaseNotes,
  refundDesk,
  codeMode,
];
