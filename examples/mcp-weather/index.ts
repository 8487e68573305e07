import type { ExampleDefinition } from "../../src/cli/example-definition.js";
import { packagePath } from "../../src/package-root.js";
import { catalogEntry } from "../catalog.js";
import { RECORDED_WITH } from "../script-helpers.js";
import { UserInput } from "../user-input.js";
import type { WeatherReport } from "./domain.js";
import { weatherScript } from "./script.js";
import { WeatherReporter } from "./weather-reporter.js";

export { WeatherReport } from "./domain.js";
export { cityFrom, weatherScript } from "./script.js";
export { WeatherReporter } from "./weather-reporter.js";

/**
 * The example's config file (it names the MCP server, which ships beside it),
 * in the package's `examples/` folder, also when run from `dist/`.
 */
export const MCP_WEATHER_CONFIG: string = packagePath("examples/mcp-weather/embabel.config.json");

/** `embabel-ts run mcp-weather "<a city>"`. */
export const example: ExampleDefinition = {
  ...catalogEntry("mcp-weather"),
  agents: [WeatherReporter],
  configFile: MCP_WEATHER_CONFIG,
  input: (text) => UserInput.create({ content: text }),
  recordedWith: RECORDED_WITH,
  script: weatherScript,
  formatResult(result) {
    const report = result as WeatherReport;
    if (!report?.summary) return JSON.stringify(result, null, 2);
    // The summary often names the city already ("Lisbon: Clear, 15°C…"): say it once.
    return report.summary.startsWith(report.city) ? report.summary : `${report.city}: ${report.summary}`;
  },
};
