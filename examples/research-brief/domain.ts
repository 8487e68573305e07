import { z } from "zod";
import { domainType } from "../../src/index.js";

const sourceShape = z.object({
  title: z.string(),
  authors: z.string(),
  year: z.number().int(),
  finding: z.string().describe("The source's main finding, in one sentence"),
});

/** One source found in the library. */
export type Source = z.output<typeof sourceShape>;

/** What the first action finds: the sources on the topic. */
export const SourceList = domainType(
  "SourceList",
  z.object({
    topic: z.string().describe("The research topic in a few words"),
    sources: z.array(sourceShape).describe("The sources found, most relevant first"),
  }),
);
/** A {@link SourceList} value. */
export type SourceList = z.output<typeof SourceList.schema>;

/** The finished brief: the ResearchBriefer agent's goal. */
export const ResearchBrief = domainType(
  "ResearchBrief",
  z.object({
    topic: z.string(),
    headline: z.string().describe("The main conclusion in one line"),
    summary: z.string().describe("Two or three sentences for the reader"),
    analysis: z.enum(["deep", "quick"]).describe("Which analysis the brief rests on"),
    sources: z.array(z.string()).describe("Titles of the sources used"),
  }),
);
/** A {@link ResearchBrief} value. */
export type ResearchBrief = z.output<typeof ResearchBrief.schema>;
