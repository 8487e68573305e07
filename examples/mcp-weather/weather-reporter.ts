import { achievesGoal, action, agent, type OperationContext } from "../../src/index.js";
import { UserInput } from "../user-input.js";
import { WeatherReport } from "./domain.js";

/**
 * Reports today's weather for the city a user asks about. Its tools are not
 * in the code: the action asks for the `weather` tool group, which the config
 * file maps to an MCP server's tools.
 */
@agent({
  name: "WeatherReporter",
  description: "Reports today's weather for a city, from an MCP weather server",
})
export class WeatherReporter {
  @achievesGoal({ description: "The weather has been reported" })
  @action({ input: UserInput, output: WeatherReport, description: "Look up and report the weather" })
  async report(request: UserInput, context: OperationContext): Promise<WeatherReport> {
    return context
      .ai()
      .withToolGroup("weather")
      .creating(WeatherReport)
      .fromPrompt(
        [
          "Report today's weather for the city in this request. Use the weather tools for the forecast",
          "and any warnings; do not guess.",
          `Request: ${request.content}`,
        ].join("\n"),
      );
  }
}
