import { z } from "zod";
import { domainType } from "../src/index.js";

/** What the user typed: the examples' agents start from it. */
export const UserInput = domainType(
  "UserInput",
  z.object({ content: z.string().describe("The user's request, as typed") }),
);
/** A {@link UserInput} value. */
export type UserInput = z.output<typeof UserInput.schema>;
