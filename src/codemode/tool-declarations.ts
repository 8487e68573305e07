import type { JsonSchema } from "../tool/input-schema.js";
import type { Tool } from "../tool/tool.js";

/** How deep nested schemas are written out before `unknown`. */
const MAX_DEPTH = 6;
/** Longest description kept in a declaration's comment. */
const MAX_DESCRIPTION = 200;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A tool as a TypeScript method declaration the model reads: its description
 * as a comment, its parameters as one object type (with descriptions,
 * defaults and enums kept), and `Promise<unknown>` as the result.
 */
export function toolDeclaration(tool: Tool): string {
  const { name, description, inputSchema } = tool.definition;
  const comment = shortText(description);
  const params = typeOf(inputSchema.jsonSchema, 0);
  const optional = (inputSchema.jsonSchema.required as unknown[] | undefined)?.length ? "" : "?";
  return `${comment === "" ? "" : `  /** ${comment} */\n`}  ${keyOf(name)}(args${optional}: ${params}): Promise<unknown>;`;
}

/** The declarations of `tools` as one `declare const tools: {...}` block. */
export function toolsDeclaration(tools: readonly Tool[]): string {
  return `declare const tools: {\n${tools.map(toolDeclaration).join("\n")}\n};`;
}

/** A property or method name, quoted when it is not an identifier. */
function keyOf(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function shortText(text: unknown): string {
  if (typeof text !== "string") return "";
  const oneLine = text.replace(/\s+/g, " ").replace(/\*\//g, "* /").trim();
  return oneLine.length > MAX_DESCRIPTION ? `${oneLine.slice(0, MAX_DESCRIPTION - 1)}…` : oneLine;
}

/** The TypeScript type of a JSON Schema (local `$ref`s, `oneOf`/`anyOf`/`allOf`, enums and consts as literals); `unknown` when it can't say. */
export function typeOf(schema: unknown, depth: number): string {
  if (typeof schema !== "object" || schema === null || depth > MAX_DEPTH) return "unknown";
  const s = schema as JsonSchema;
  if ("const" in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 0 ? "never" : s.enum.map(literal).join(" | ");
  const union =
    (Array.isArray(s.anyOf) ? s.anyOf : undefined) ?? (Array.isArray(s.oneOf) ? s.oneOf : undefined);
  if (union !== undefined)
    return union.map((part) => wrapped(typeOf(part, depth + 1))).join(" | ") || "unknown";
  if (Array.isArray(s.allOf))
    return s.allOf.map((part) => wrapped(typeOf(part, depth + 1))).join(" & ") || "unknown";
  const type = s.type;
  if (Array.isArray(type)) return type.map((one) => wrapped(typeOf({ ...s, type: one }, depth))).join(" | ");
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${typeOf(s.items, depth + 1)}>`;
    case "object":
      return objectType(s, depth);
    default:
      return typeof s.properties === "object" && s.properties !== null ? objectType(s, depth) : "unknown";
  }
}

function objectType(s: JsonSchema, depth: number): string {
  const properties = (
    typeof s.properties === "object" && s.properties !== null ? s.properties : {}
  ) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]) : []);
  const members = Object.entries(properties).map(([key, value]) => {
    const note = propertyNote(value);
    return `${note}${keyOf(key)}${required.has(key) ? "" : "?"}: ${typeOf(value, depth + 1)}`;
  });
  const extra = s.additionalProperties;
  if (typeof extra === "object" && extra !== null) members.push(`[key: string]: ${typeOf(extra, depth + 1)}`);
  if (members.length === 0) return extra === false ? "{}" : "Record<string, unknown>";
  return `{ ${members.join("; ")} }`;
}

/** `/** description; default x *\/ ` for a property that has either, else "". */
function propertyNote(value: unknown): string {
  if (typeof value !== "object" || value === null) return "";
  const schema = value as JsonSchema;
  const parts = [shortText(schema.description)];
  if ("default" in schema) parts.push(`@default ${JSON.stringify(schema.default)}`);
  const text = parts.filter((part) => part !== "").join(" ");
  return text === "" ? "" : `/** ${text} */ `;
}

function literal(value: unknown): string {
  return JSON.stringify(value) ?? "unknown";
}

function wrapped(type: string): string {
  return / [|&] /.test(type) ? `(${type})` : type;
}
