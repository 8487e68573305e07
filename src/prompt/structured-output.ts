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

const FENCE = "```";
const LANGUAGE = /[a-zA-Z]*/y;
const ANY_FENCE = /```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)```/;

/**
 * The JSON inside `text`: the whole text, the content of a ```json fence
 * around it, or, when prose comes first (`Here it is: ```json ...```), the
 * first fenced block.
 */
function jsonText(text: string): string {
  const trimmed = text.trim();
  // The whole text fenced: string operations, not a regex (a lazy group after `\s*` was quadratic).
  if (trimmed.length >= 2 * FENCE.length && trimmed.startsWith(FENCE) && trimmed.endsWith(FENCE)) {
    LANGUAGE.lastIndex = FENCE.length;
    LANGUAGE.test(trimmed);
    return trimmed.slice(LANGUAGE.lastIndex, -FENCE.length).trim();
  }
  const inner = ANY_FENCE.exec(trimmed);
  return inner?.[1] !== undefined ? inner[1].trim() : trimmed;
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
