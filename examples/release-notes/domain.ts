import { z } from "zod";
import { domainType } from "../../src/index.js";

/** Release notes for one version. */
export const ReleaseNotes = domainType(
  "ReleaseNotes",
  z.object({
    version: z.string().describe("The version being released, e.g. 2.4.0"),
    notes: z.string().describe("The release notes in Markdown, in the house style"),
  }),
);
/** A {@link ReleaseNotes} value. */
export type ReleaseNotes = z.output<typeof ReleaseNotes.schema>;
