import { type ErrorResult, ToolResult } from "./tool-result.js";
import { TypeParseError } from "./type-token.js";

/** Validates an already parsed JSON value; throws (ideally a {@link TypeParseError}) when it does not fit. */
export type InputReader<T> = (value: unknown) => T;

/** The outcome of reading a tool's raw JSON arguments. */
export type ToolInputResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ErrorResult };

/** What {@link readToolInput} needs to know about the tool, to word its messages. */
export interface ToolInputTarget<T> {
  /** The tool's name, quoted in messages. */
  readonly toolName: string;
  /** The input type's name (`AddRequest`), quoted when blank input does not fit. */
  readonly typeName: string;
  /** Validates the parsed JSON. */
  readonly read: InputReader<T>;
}

function problemsOf(error: unknown): string {
  if (TypeParseError.isInstance(error)) return error.problems.join("; ");
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

/**
 * Parses and validates the raw JSON arguments an LLM sent. Blank input is read
 * as `{}`. Invalid JSON and values that do not fit come back as an
 * {@link ErrorResult} saying what was wrong, so the model can retry.
 */
export function readToolInput<T>(input: string, target: ToolInputTarget<T>): ToolInputResult<T> {
  const blank = input.trim().length === 0;
  let json: unknown;
  if (blank) {
    json = {};
  } else {
    try {
      json = JSON.parse(input);
    } catch (error) {
      return {
        ok: false,
        error: ToolResult.error(
          `Invalid JSON arguments for tool '${target.toolName}': ${(error as Error).message}. Send the arguments as one JSON object matching the tool's input schema.`,
          error,
        ),
      };
    }
  }
  try {
    return { ok: true, value: target.read(json) };
  } catch (error) {
    const message = blank
      ? `Empty input provided but ${target.typeName} requires arguments: ${problemsOf(error)}`
      : `Invalid arguments for tool '${target.toolName}': ${problemsOf(error)}`;
    return { ok: false, error: ToolResult.error(message, error) };
  }
}
