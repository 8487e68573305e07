import type { ScriptedStepInit } from "../../src/testing/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { labelledJson, lastToolOutput, userText, withRecordedUsage } from "../script-helpers.js";
import { type Horoscope, SIGNS, type StarPerson, type Writeup } from "./domain.js";

/**
 * The person a model would extract: a capitalised word (not the request's
 * first word when there are others, so "Write one for Marco" gives Marco),
 * and the sign named (Scorpio if none).
 */
function personFrom(request: string): StarPerson {
  const sign =
    SIGNS.find((candidate) => request.toLowerCase().includes(candidate.toLowerCase())) ?? "Scorpio";
  const words = request.split(/[^A-Za-zÀ-ÿ'-]+/).filter((word) => word.length > 0);
  const names = words.filter(
    (word, index) =>
      /^[A-ZÀ-Þ]/.test(word) &&
      !SIGNS.includes(word as StarPerson["sign"]) &&
      (index > 0 || words.length === 1),
  );
  const first = words[0];
  const name = names[0] ?? (first && /^[A-ZÀ-Þ]/.test(first) ? first : "Friend");
  return { name, sign };
}

/**
 * The replies of the recorded run: the extracted StarPerson; then, writing
 * the piece, two astrology tool calls in one step and the Writeup built from
 * their results and the horoscope. (Retrieving the horoscope is plain code:
 * no model call.)
 */
export function starNewsScript(): ScriptedStepInit[] {
  const steps: ScriptedStepInit[] = [
    (request) =>
      ScriptedModel.text(JSON.stringify(personFrom(userText(request).split("Request:").pop() ?? ""))),
    (request) => {
      const person = (labelledJson(userText(request), "Person") as StarPerson | undefined) ?? personFrom("");
      return ScriptedModel.toolCalls([
        { name: "lucky_number", args: { name: person.name } },
        { name: "compatible_signs", args: { sign: person.sign } },
      ]);
    },
    (request) => {
      const text = userText(request);
      const person = (labelledJson(text, "Person") as StarPerson | undefined) ?? personFrom("");
      const horoscope = labelledJson(text, "Horoscope") as Horoscope | undefined;
      const writeup: Writeup = {
        headline: `${person.name}'s stars: ${horoscope?.summary.split(";")[0]?.replace(/\.$/, "") ?? "a good day"}`,
        text: [
          `${person.name}, as ${/^[AEIOU]/.test(person.sign) ? "an" : "a"} ${person.sign}, today's reading says: ${horoscope?.summary ?? "expect the unexpected."}`,
          lastToolOutput(request, "lucky_number") ?? "",
          lastToolOutput(request, "compatible_signs") ?? "",
          "Make the most of it.",
        ]
          .filter((sentence) => sentence.length > 0)
          .join(" "),
      };
      return ScriptedModel.text(JSON.stringify(writeup));
    },
  ];
  return steps.map(withRecordedUsage);
}
