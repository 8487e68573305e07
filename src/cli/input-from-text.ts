// What an agent starts from, and that value made from the text typed after
// `run <module>` (a string, JSON, or the one string field of an object type).
import { TypeParseError } from "../errors/type-parse-error.js";
import { agentInputType } from "../mcp/serve/create-mcp-server.js";
import { Agent, type AgentLike } from "../platform/agent.js";
import type { TypeToken } from "../tool/type-token.js";
import { UsageError } from "./usage-error.js";

/** The type the agent starts from (the first action input no other action produces). */
export function startingType(agent: AgentLike): TypeToken {
  return agentInputType(Agent.of(agent));
}

/** One line describing what `type` needs: `Person { name: string, age?: number }`. */
export function describeType(type: TypeToken): string {
  const schema = type.jsonSchema as {
    type?: unknown;
    properties?: Record<string, { type?: unknown }>;
    required?: unknown;
  };
  if (schema.type !== "object" || !schema.properties) return `${type.name} (${String(schema.type ?? "any")})`;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const fields = Object.entries(schema.properties).map(
    ([name, property]) => `${name}${required.has(name) ? "" : "?"}: ${String(property?.type ?? "any")}`,
  );
  return `${type.name} { ${fields.join(", ")} }`;
}

/**
 * The value an agent starts from, made from the text typed: the text itself
 * for a string type, JSON text parsed and checked against the type, or the
 * text as the only string field of an object type.
 */
export function inputFromText(agent: AgentLike, text: string): unknown {
  const type = startingType(agent);
  const name = Agent.of(agent).name;
  const schema = type.jsonSchema as {
    type?: unknown;
    properties?: Record<string, { type?: unknown }>;
    required?: unknown;
  };
  const parse = (value: unknown) => {
    try {
      return type.parse(value);
    } catch (error) {
      if (!TypeParseError.isInstance(error)) throw error;
      throw new UsageError(
        `The input does not fit ${describeType(type)}, which agent '${name}' starts from: ${error.message}`,
      );
    }
  };
  if (schema.type === "string") return parse(text);
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new UsageError(`The input looks like JSON but is not valid JSON: ${(error as Error).message}`);
    }
    return parse(value);
  }
  if (schema.type === "number" || schema.type === "integer" || schema.type === "boolean") {
    try {
      return parse(JSON.parse(trimmed));
    } catch (error) {
      if (UsageError.isInstance(error)) throw error;
      return parse(trimmed);
    }
  }
  const properties = Object.entries(schema.properties ?? {});
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const strings = properties.filter(([, property]) => property?.type === "string").map(([key]) => key);
  const only =
    properties.length === 1
      ? strings[0]
      : required.length === 1 && strings.includes(required[0] as string)
        ? required[0]
        : undefined;
  if (only !== undefined) return parse({ [only]: text });
  throw new UsageError(
    `Agent '${name}' starts from ${describeType(type)}: give the input as JSON, e.g. '${JSON.stringify(Object.fromEntries(properties.map(([key]) => [key, "…"])))}'.`,
  );
}
