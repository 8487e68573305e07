import { z } from "zod";
import { domainType } from "../../src/index.js";

/** What the user asked for, turned into a plan by the first action. */
export const ConcertPlan = domainType(
  "ConcertPlan",
  z.object({
    theme: z.string().describe("The concert's theme in a few words"),
    composers: z.array(z.string()).min(1).describe("Composers whose works should be played"),
    era: z.string().describe("Musical era, e.g. Baroque, Classical, Romantic"),
    city: z.string().describe("City where the concert takes place"),
    audienceSize: z.number().int().positive().describe("Expected audience"),
    maxWorks: z.number().int().min(1).max(8).describe("How many works to program"),
  }),
);
/** A {@link ConcertPlan} value. */
export type ConcertPlan = z.output<typeof ConcertPlan.schema>;

/** The subagent's input: which works to look for (the chapter's `WorksToFind`). */
export const WorksToFind = domainType(
  "WorksToFind",
  z.object({
    composers: z.array(z.string()).min(1).describe("Composers to search for"),
    era: z.string().describe("Musical era"),
    maxResults: z.number().int().min(1).max(10).describe("Maximum number of performances to return"),
  }),
);
/** A {@link WorksToFind} value. */
export type WorksToFind = z.output<typeof WorksToFind.schema>;

const performanceShape = z.object({
  id: z.string().describe("Catalogue id"),
  composer: z.string(),
  work: z.string(),
  performers: z.string(),
  year: z.number().int(),
  minutes: z.number().int().positive(),
});

/** One recorded performance from the catalogue. */
export const Performance = domainType("Performance", performanceShape);
/** A {@link Performance} value. */
export type Performance = z.output<typeof performanceShape>;

/** What the PerformanceFinder agent returns. */
export const PerformanceList = domainType(
  "PerformanceList",
  z.object({ performances: z.array(performanceShape).describe("The performances found, best first") }),
);
/** A {@link PerformanceList} value. */
export type PerformanceList = z.output<typeof PerformanceList.schema>;

/** The finished concert: the ConcertPlanner agent's goal. */
export const Concert = domainType(
  "Concert",
  z.object({
    title: z.string(),
    venue: z.string(),
    date: z.string().describe("ISO date"),
    program: z
      .array(
        z.object({ composer: z.string(), work: z.string(), performers: z.string(), minutes: z.number() }),
      )
      .min(1),
    totalMinutes: z.number(),
    notes: z.string().describe("One or two sentences for the programme booklet"),
  }),
);
/** A {@link Concert} value. */
export type Concert = z.output<typeof Concert.schema>;
