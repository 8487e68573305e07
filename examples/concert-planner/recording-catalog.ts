import { z } from "zod";
import { llmTool } from "../../src/index.js";
import type { Performance } from "./domain.js";

/** A small, fixed catalogue so the example runs the same everywhere. */
const CATALOG: readonly Performance[] = [
  {
    id: "rec-101",
    composer: "Mozart",
    work: "Eine kleine Nachtmusik, K. 525",
    performers: "Academy of St Martin in the Fields",
    year: 1985,
    minutes: 17,
  },
  {
    id: "rec-102",
    composer: "Mozart",
    work: "Clarinet Concerto, K. 622",
    performers: "Sabine Meyer, Berlin Philharmonic",
    year: 1998,
    minutes: 28,
  },
  {
    id: "rec-103",
    composer: "Mozart",
    work: "Symphony No. 40, K. 550",
    performers: "Vienna Philharmonic, Bernstein",
    year: 1984,
    minutes: 34,
  },
  {
    id: "rec-104",
    composer: "Mozart",
    work: "Piano Concerto No. 21, K. 467",
    performers: "Mitsuko Uchida, English Chamber Orchestra",
    year: 1988,
    minutes: 29,
  },
  {
    id: "rec-201",
    composer: "Haydn",
    work: "Symphony No. 94 'Surprise'",
    performers: "Orchestra of the 18th Century",
    year: 1992,
    minutes: 23,
  },
  {
    id: "rec-202",
    composer: "Haydn",
    work: "Trumpet Concerto in E-flat",
    performers: "Alison Balsom, Trevor Pinnock",
    year: 2008,
    minutes: 15,
  },
  {
    id: "rec-301",
    composer: "Beethoven",
    work: "Symphony No. 7",
    performers: "Vienna Philharmonic, Carlos Kleiber",
    year: 1976,
    minutes: 36,
  },
  {
    id: "rec-302",
    composer: "Beethoven",
    work: "Violin Concerto in D",
    performers: "Isabelle Faust, Claudio Abbado",
    year: 2012,
    minutes: 42,
  },
  {
    id: "rec-401",
    composer: "Bach",
    work: "Brandenburg Concerto No. 3",
    performers: "English Baroque Soloists",
    year: 2009,
    minutes: 11,
  },
  {
    id: "rec-402",
    composer: "Bach",
    work: "Goldberg Variations",
    performers: "Glenn Gould",
    year: 1981,
    minutes: 51,
  },
  {
    id: "rec-501",
    composer: "Vivaldi",
    work: "The Four Seasons",
    performers: "Il Giardino Armonico",
    year: 1994,
    minutes: 40,
  },
  {
    id: "rec-601",
    composer: "Schubert",
    work: "Symphony No. 8 'Unfinished'",
    performers: "Berlin Philharmonic, Wand",
    year: 1995,
    minutes: 26,
  },
];

/** Tools over the recording catalogue, for the PerformanceFinder agent. */
export class RecordingCatalog {
  @llmTool({
    name: "search_recordings",
    description: "Search the recording catalogue for performances of works by one composer",
    input: z.object({
      composer: z.string().describe("Composer's surname, e.g. Mozart"),
      limit: z.number().int().min(1).max(10).default(5).describe("Maximum results"),
    }),
  })
  searchRecordings({ composer, limit }: { composer: string; limit: number }): Performance[] | string {
    const wanted = composer.trim().toLowerCase();
    const found = CATALOG.filter((entry) => entry.composer.toLowerCase() === wanted).slice(0, limit);
    if (found.length === 0) {
      const known = [...new Set(CATALOG.map((entry) => entry.composer))].join(", ");
      return `No recordings of ${composer} in the catalogue. Composers available: ${known}.`;
    }
    return found;
  }
}
