import { ConfigurationError } from "../errors/configuration-error.js";
import { InputSchema } from "../tool/input-schema.js";
import { ownPropertiesFor } from "../tool/own-properties.js";
import { TypeParseError, type TypeToken } from "../tool/type-token.js";

/**
 * An agent's or goal's name as a tool name every provider accepts, case kept
 * (`Concert Assembler` → `Concert_Assembler`); `fallback` when nothing is left.
 */
export function toolNameFor(name: string, fallback: string): string {
  const toolName = name.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 64);
  return toolName.length > 0 ? toolName : fallback;
}

/** The input schema of a tool consuming `type`; the type must be an object type (tool arguments are JSON objects). */
export function objectInputSchema(type: TypeToken, toolName: string): InputSchema {
  const jsonSchema = type.jsonSchema;
  if (jsonSchema.type !== "object") {
    throw new ConfigurationError(
      `The input type ${type.name} of tool '${toolName}' must be an object type (a zod object schema, a domainType or a class); LLM tool arguments are always a JSON object.`,
    );
  }
  return InputSchema.fromJsonSchema(jsonSchema);
}

/** The input parsed into `type`, or the reason it could not be. */
export type ParsedInput<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/** Parses the LLM's JSON text into `type`; the message says what was wrong (bad JSON, or which field). */
export function parseInput<T>(input: string, type: TypeToken<T>): ParsedInput<T> {
  let json: unknown;
  try {
    json = JSON.parse(input.trim().length === 0 ? "{}" : input);
  } catch (error) {
    return { ok: false, message: `invalid JSON (${(error as Error).message})` };
  }
  try {
    return { ok: true, value: type.parse(ownPropertiesFor(type.jsonSchema)(json)) };
  } catch (error) {
    if (error instanceof TypeParseError) return { ok: false, message: error.message };
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
