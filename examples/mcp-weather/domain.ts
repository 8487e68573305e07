import { z } from "zod";
import { domainType } from "../../src/index.js";

/** A short weather report for one city. */
export const WeatherReport = domainType(
  "WeatherReport",
  z.object({
    city: z.string().describe("The city the report is about"),
    summary: z.string().describe("Today's weather, in one or two sentences"),
  }),
);
/** A {@link WeatherReport} value. */
export type WeatherReport = z.output<typeof WeatherReport.schema>;
