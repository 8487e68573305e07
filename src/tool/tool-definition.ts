import { ConfigurationError } from "../errors/configuration-error.js";
import type { InputSchema } from "./input-schema.js";

/** What the LLM is told about a tool. */
export interface ToolDefinition {
  /** The name the LLM calls; matches `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** What the tool does. */
  readonly description: string;
  /** What the tool accepts. */
  readonly inputSchema: InputSchema;
  /** Application data for routing and grouping; never sent to the LLM. @default {} */
  readonly metadata: Readonly<Record<string, unknown>>;
}

const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Throws a {@link ConfigurationError} naming the tool unless `name` is acceptable to every provider. */
export function validateToolName(name: string): string {
  if (!VALID_NAME.test(name)) {
    throw new ConfigurationError(
      `Invalid tool name '${name}': tool names must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, '_' and '-', at most 64 characters).`,
    );
  }
  return name;
}

/** Turns any text into a valid tool name (`My API Reference` → `my_api_reference`). */
export function normalizeToolName(text: string): string {
  const name = text.toLowerCase().replace(/[^a-z0-9_-]+/g, "_");
  // Index loops, not `/^_+|_+$/`: that regex is quadratic on a long run of `_` inside the text.
  let start = 0;
  while (start < name.length && name[start] === "_") start++;
  let end = name.length;
  while (end > start && name[end - 1] === "_") end--;
  const trimmed = name.slice(start, Math.min(end, start + 64));
  return trimmed.length > 0 ? trimmed : "tool";
}

/** Builds a definition after validating its name. */
export function toolDefinition(
  name: string,
  description: string,
  inputSchema: InputSchema,
  metadata: Readonly<Record<string, unknown>> = {},
): ToolDefinition {
  return Object.freeze({ name: validateToolName(name), description, inputSchema, metadata });
}
