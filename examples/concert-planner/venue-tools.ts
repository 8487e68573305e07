import { z } from "zod";
import { Tool, UnfoldingTool } from "../../src/index.js";

interface Venue {
  readonly name: string;
  readonly city: string;
  readonly capacity: number;
  readonly freeDates: readonly string[];
}

const VENUES: readonly Venue[] = [
  {
    name: "Wiener Konzerthaus, Mozart-Saal",
    city: "Vienna",
    capacity: 704,
    freeDates: ["2026-03-14", "2026-03-21"],
  },
  { name: "Musikverein, Brahms-Saal", city: "Vienna", capacity: 600, freeDates: ["2026-03-15"] },
  { name: "Wigmore Hall", city: "London", capacity: 552, freeDates: ["2026-04-02", "2026-04-09"] },
  { name: "Salle Cortot", city: "Paris", capacity: 400, freeDates: ["2026-05-10"] },
];

const findVenues = Tool.fromFunction(
  "find_venues",
  "Find concert halls in a city that seat at least the given audience",
  z.object({
    city: z.string().describe("City name"),
    audienceSize: z.number().int().positive().describe("Seats needed"),
  }),
  z.array(z.object({ name: z.string(), capacity: z.number() })),
  ({ city, audienceSize }) =>
    VENUES.filter(
      (venue) => venue.city.toLowerCase() === city.toLowerCase() && venue.capacity >= audienceSize,
    ).map(({ name, capacity }) => ({ name, capacity })),
);

const checkAvailability = Tool.fromFunction(
  "check_availability",
  "List the free dates of a concert hall",
  z.object({ venue: z.string().describe("The hall's exact name, as find_venues returned it") }),
  z.string(),
  ({ venue }) => {
    const found = VENUES.find((candidate) => candidate.name === venue);
    if (!found) return `Unknown venue '${venue}'. Call find_venues first and use a name it returns.`;
    return `${found.name} is free on ${found.freeDates.join(", ")}.`;
  },
);

/**
 * The venue tools behind one facade: the LLM first sees only `venue_tools`,
 * and its two operations appear once it calls it.
 */
export function venueTools(): Tool {
  return UnfoldingTool.of(
    "venue_tools",
    "Find concert halls and check their free dates. Invoke to see the available operations.",
    [findVenues, checkAvailability],
    { childToolUsageNotes: "Call find_venues first, then check_availability with a name it returned." },
  );
}
