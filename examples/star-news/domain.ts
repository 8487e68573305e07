import { z } from "zod";
import { domainType } from "../../src/index.js";

/** The twelve signs of the zodiac. */
export const SIGNS = [
  "Aries",
  "Taurus",
  "Gemini",
  "Cancer",
  "Leo",
  "Virgo",
  "Libra",
  "Scorpio",
  "Sagittarius",
  "Capricorn",
  "Aquarius",
  "Pisces",
] as const;

/** A person and their star sign, extracted from the user's request. */
export const StarPerson = domainType(
  "StarPerson",
  z.object({
    name: z.string().min(1).describe("The person's first name"),
    sign: z.enum(SIGNS).describe("The person's star sign"),
  }),
);
/** A {@link StarPerson} value. */
export type StarPerson = z.output<typeof StarPerson.schema>;

/** Today's horoscope for one sign. */
export const Horoscope = domainType(
  "Horoscope",
  z.object({ sign: z.enum(SIGNS), date: z.string(), summary: z.string() }),
);
/** A {@link Horoscope} value. */
export type Horoscope = z.output<typeof Horoscope.schema>;

/** The finished piece: the StarNewsWriter agent's goal. */
export const Writeup = domainType(
  "Writeup",
  z.object({ headline: z.string(), text: z.string().describe("Three to five sentences") }),
);
/** A {@link Writeup} value. */
export type Writeup = z.output<typeof Writeup.schema>;
