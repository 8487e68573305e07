import type { ExampleDefinition } from "../../src/cli/example-definition.js";
import { catalogEntry } from "../catalog.js";
import { RECORDED_WITH } from "../script-helpers.js";
import { UserInput } from "../user-input.js";
import type { Writeup } from "./domain.js";
import { starNewsScript } from "./script.js";
import { StarNewsWriter } from "./star-news-writer.js";

export { AstrologyTools } from "./astrology-tools.js";
export { Horoscope, SIGNS, StarPerson, Writeup } from "./domain.js";
export { horoscopeFor } from "./horoscope-service.js";
export { starNewsScript } from "./script.js";
export { StarNewsWriter } from "./star-news-writer.js";

/** `embabel-ts run star-news "<who and their sign>"`. */
export const example: ExampleDefinition = {
  ...catalogEntry("star-news"),
  agents: [StarNewsWriter],
  input: (text) => UserInput.create({ content: text }),
  recordedWith: RECORDED_WITH,
  script: starNewsScript,
  formatResult(result) {
    const writeup = result as Writeup;
    return writeup?.headline ? `${writeup.headline}\n\n${writeup.text}` : JSON.stringify(result, null, 2);
  },
};
