import { TypeParseError, type TypeToken } from "../tool/type-token.js";

/** The system-prompt text asking for output of `type`. */
export function outputInstructions(type: TypeToken): string {
  return [
    `Your final answer must be a single JSON value of type ${type.name}, conforming to this JSON Schema.`,
    "Reply with the JSON only: no prose, no code fences.",
    JSON.stringify(type.jsonSchema),
  ].join("\n");
}

/** What reading an answer gave: a value, or the problems found. */
export type ParsedOutput<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly string[] };

/** The JSON inside `text`: the whole text, or the content of a ```json fence. */
function jsonText(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?```$/.exec(trimmed);
  return fenced?.[1] !== undefined ? fenced[1].trim() : trimmed;
}

/** Reads the model's answer as `type`, saying exactly what is wrong when it cannot. */
export function parseOutput<T>(text: string, type: TypeToken<T>): ParsedOutput<T> {
  const body = jsonText(text);
  if (body.length === 0) return { ok: false, problems: ["the answer is empty; expected a JSON value"] };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return { ok: false, problems: [`the answer is not valid JSON (${(error as Error).message})`] };
  }
  try {
    return { ok: true, value: type.parse(json) };
  } catch (error) {
    if (error instanceof TypeParseError) return { ok: false, problems: error.problems };
    return { ok: false, problems: [error instanceof Error ? error.message : String(error)] };
  }
}

/** The message asking the model to correct an invalid answer. */
export function correctionMessage(type: TypeToken, problems: readonly string[]): string {
  return [
    `Your previous answer was not a valid ${type.name}:`,
    ...problems.map((problem) => `- ${problem}`),
    `Reply again with only the corrected JSON value of type ${type.name}, conforming to the JSON Schema given in the system prompt.`,
  ].join("\n");
}
