import type { ScriptedStepInit } from "../../src/testing/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import {
  jsonOrUndefined,
  labelledJson,
  lastToolOutput,
  toolOutputs,
  userText,
  withRecordedUsage,
} from "../script-helpers.js";
import type { Concert, ConcertPlan, Performance, PerformanceList, WorksToFind } from "./domain.js";

const ERAS: Readonly<Record<string, string>> = {
  Bach: "Baroque",
  Vivaldi: "Baroque",
  Haydn: "Classical",
  Mozart: "Classical",
  Beethoven: "Classical",
  Schubert: "Romantic",
};
const CITIES = ["Vienna", "London", "Paris"];

/** The plan a model would extract from the request (composers, city and audience mentioned in it). */
function planFrom(request: string): ConcertPlan {
  const composers = Object.keys(ERAS).filter((composer) =>
    request.toLowerCase().includes(composer.toLowerCase()),
  );
  const chosen = composers.length > 0 ? composers : ["Mozart"];
  const city =
    CITIES.find((candidate) => request.toLowerCase().includes(candidate.toLowerCase())) ?? "Vienna";
  const audience = /(\d{2,5})\s*(people|guests|seats|listeners)/i.exec(request);
  const theme = request.replace(/\s+/g, " ").trim().slice(0, 60) || "An evening of music";
  return {
    theme,
    composers: chosen,
    era: ERAS[chosen[0] as string] ?? "Classical",
    city,
    audienceSize: audience ? Number(audience[1]) : 300,
    maxWorks: 3,
  };
}

function planIn(text: string): ConcertPlan {
  return (labelledJson(text, "Plan") as ConcertPlan | undefined) ?? planFrom(text);
}

/**
 * The replies of the recorded run, in the order the agents ask: the planner's
 * structured plan; then, assembling the concert, the venue facade, its two
 * tools and the PerformanceFinder subagent (whose own LLM searches the
 * catalogue and answers with a PerformanceList); then the Concert. Each step
 * computes its reply from what the model was sent, so the run follows the
 * user's input.
 */
export function concertPlannerScript(): ScriptedStepInit[] {
  const steps: ScriptedStepInit[] = [
    // planConcert: extract a ConcertPlan from the request.
    (request) =>
      ScriptedModel.text(JSON.stringify(planFrom(userText(request).split("Request:").pop() ?? ""))),
    // assembleConcert: open the venue facade first.
    ScriptedModel.toolCall("venue_tools", {}),
    (request) => {
      const plan = planIn(userText(request));
      return ScriptedModel.toolCall("find_venues", { city: plan.city, audienceSize: plan.audienceSize });
    },
    (request) => {
      const venues = jsonOrUndefined(lastToolOutput(request, "find_venues")) as
        | { name: string }[]
        | undefined;
      return ScriptedModel.toolCall("check_availability", { venue: venues?.[0]?.name ?? "Wigmore Hall" });
    },
    (request) => {
      const plan = planIn(userText(request));
      const works: WorksToFind = { composers: plan.composers, era: plan.era, maxResults: plan.maxWorks };
      return ScriptedModel.toolCall("PerformanceFinder", works);
    },
    // PerformanceFinder (child process): search the catalogue for each composer...
    (request) => {
      const works = labelledJson(userText(request), "Works to find") as WorksToFind | undefined;
      const composers = works?.composers ?? ["Mozart"];
      return ScriptedModel.toolCalls(
        composers.map((composer) => ({ name: "search_recordings", args: { composer, limit: 5 } })),
      );
    },
    // ...and answer with the best performances found.
    (request) => {
      const works = labelledJson(userText(request), "Works to find") as WorksToFind | undefined;
      const found = toolOutputs(request, "search_recordings").flatMap((output) => {
        const parsed = jsonOrUndefined(output);
        return Array.isArray(parsed) ? (parsed as Performance[]) : [];
      });
      const list: PerformanceList = { performances: found.slice(0, works?.maxResults ?? 3) };
      return ScriptedModel.text(JSON.stringify(list));
    },
    // assembleConcert again: write the Concert from the tool results.
    (request) => {
      const plan = planIn(userText(request));
      const venues = jsonOrUndefined(lastToolOutput(request, "find_venues")) as
        | { name: string }[]
        | undefined;
      const dates = /\d{4}-\d{2}-\d{2}/.exec(lastToolOutput(request, "check_availability") ?? "");
      const list = jsonOrUndefined(lastToolOutput(request, "PerformanceFinder")) as
        | PerformanceList
        | undefined;
      const program = (list?.performances ?? []).map(({ composer, work, performers, minutes }) => ({
        composer,
        work,
        performers,
        minutes,
      }));
      const concert: Concert = {
        title: plan.theme,
        venue: venues?.[0]?.name ?? "to be confirmed",
        date: dates?.[0] ?? "to be confirmed",
        program,
        totalMinutes: program.reduce((sum, item) => sum + item.minutes, 0),
        notes: `A ${plan.era.toLowerCase()} programme of ${plan.composers.join(" and ")} for ${plan.audienceSize} listeners in ${plan.city}.`,
      };
      return ScriptedModel.text(JSON.stringify(concert));
    },
  ];
  return steps.map(withRecordedUsage);
}
