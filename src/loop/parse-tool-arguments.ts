import type { Tool } from "../tool/tool.js";
import { toolParams } from "../tool/tool-params.js";
import { MAX_ARGUMENT_DEPTH, nestedTooDeeply } from "./argument-depth.js";
import { scalarStringCoercer } from "./coerce-scalar-strings.js";
import { jsonSchemaValidator, shownValue } from "./json-schema-validator.js";

/** Arguments that can be passed to the tool, or the in-band answer saying why not. */
export type ParsedToolArguments =
  | { readonly ok: true; readonly input: string; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly message: string; readonly value: unknown };

/**
 * Parses the model's raw JSON arguments and checks them against the tool's
 * JSON Schema. Blank input counts as `{}` (some providers send it for tools
 * without parameters). Arguments nested deeper than {@link MAX_ARGUMENT_DEPTH}
 * are refused (their raw text stays in the transcript). Strings that parse
 * exactly as the number, integer or boolean the schema asks for are taken as
 * that value; the tool then receives the arguments re-serialized, otherwise
 * the raw text unchanged. A schema that can't be checked (nested too deeply
 * for the validator) is answered in-band too. A tool whose metadata sets
 * `lenientArguments` and needs no approval gets the raw text unchecked (past
 * the depth limit): it answers bad arguments itself, in its own words.
 */
export function parseToolArguments(tool: Tool, rawInput: string): ParsedToolArguments {
  const name = tool.definition.name;
  const input = rawInput.trim() === "" ? "{}" : rawInput;
  if (nestedTooDeeply(input)) {
    return {
      ok: false,
      value: input,
      message:
        `Invalid arguments for tool '${name}': the arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep. ` +
        "Call the tool again with arguments that match its input schema.",
    };
  }
  if (tool.metadata.lenientArguments === true && tool.metadata.approval === undefined) {
    // The transcript shows what the tool reads: blank, invalid JSON or a non-object is no parameters.
    return { ok: true, input: rawInput, value: { ...toolParams(rawInput) } };
  }
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (error) {
    return {
      ok: false,
      value: input,
      message:
        `Invalid arguments for tool '${name}': the arguments are not valid JSON (${(error as Error).message}). ` +
        "Call the tool again with a valid JSON object as its arguments.",
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      value,
      message:
        `Invalid arguments for tool '${name}': the arguments must be a JSON object, got ${Array.isArray(value) ? "an array" : shownValue(value)}. ` +
        "Call the tool again with a valid JSON object as its arguments.",
    };
  }
  const schema = tool.definition.inputSchema.jsonSchema;
  let coerced: boolean;
  let problems: readonly string[];
  try {
    coerced = scalarStringCoercer(schema)(value);
    problems = jsonSchemaValidator(schema)(value);
  } catch (error) {
    // A schema too deep (or too broken) to check: answered in-band, like any other failure of the call.
    return {
      ok: false,
      value,
      message:
        `Tool '${name}' can't be called: its input schema can't be checked (${(error as Error).message}). ` +
        "Use another tool.",
    };
  }
  if (problems.length > 0) {
    return {
      ok: false,
      value,
      message:
        `Invalid arguments for tool '${name}': ${problems.join("; ")}. ` +
        "Call the tool again with arguments that match its input schema.",
    };
  }
  return {
    ok: true,
    input: coerced ? JSON.stringify(value) : input,
    value: value as Record<string, unknown>,
  };
}
