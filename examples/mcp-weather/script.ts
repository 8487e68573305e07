import type { ScriptedStepInit } from "../../src/testing/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { lastToolOutput, userText, withRecordedUsage } from "../script-helpers.js";
import type { WeatherReport } from "./domain.js";

/** The city a model would pick out: the last capitalised word of the request (Lisbon if none). */
export function cityFrom(request: string): string {
  const words = request.match(/\b[A-ZÀ-Þ][\wÀ-ÿ-]*/g) ?? [];
  return words[words.length - 1] ?? "Lisbon";
}

/** The recorded run: both weather tools in one step, then the report built from their answers (with a real model's tokens). */
export function weatherScript(): ScriptedStepInit[] {
  const steps: ScriptedStepInit[] = [
    (request) => {
      const city = cityFrom(userText(request).split("Request:").pop() ?? "");
      return ScriptedModel.toolCalls([
        { name: "weather_forecast", args: { city } },
        { name: "weather_alerts", args: { city } },
      ]);
    },
    (request) => {
      const forecast = lastToolOutput(request, "weather_forecast") ?? "no forecast";
      const report: WeatherReport = {
        city: forecast.split(":")[0] ?? "",
        summary: `${forecast}. ${lastToolOutput(request, "weather_alerts") ?? ""}`.trim(),
      };
      return ScriptedModel.text(JSON.stringify(report));
    },
  ];
  return steps.map(withRecordedUsage);
}
