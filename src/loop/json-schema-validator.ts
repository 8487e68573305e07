import type { JsonSchema } from "../tool/input-schema.js";

/** Checks a parsed value; returns the problems found (empty when valid). */
export type JsonSchemaValidator = (value: unknown) => string[];

type Check = (value: unknown, path: string, problems: string[]) => void;

const compiled = new WeakMap<object, JsonSchemaValidator>();

/**
 * A validator for the subset of JSON Schema that decides whether a tool call
 * can run: `type` (single or list), `required`, `properties`, `items` and
 * `enum`/`const`, recursively. Anything else is accepted. Compiled once per
 * schema object and cached.
 */
export function jsonSchemaValidator(schema: JsonSchema): JsonSchemaValidator {
  let validator = compiled.get(schema);
  if (!validator) {
    const check = compile(schema);
    validator = (value) => {
      const problems: string[] = [];
      check(value, "", problems);
      return problems;
    };
    compiled.set(schema, validator);
  }
  return validator;
}

/** The longest value quoted in an answer to the model. */
const MAX_SHOWN_LENGTH = 100;

/**
 * A value the model sent, as JSON for an in-band answer, cut after 100
 * characters: the answer says what was wrong without echoing a huge value back.
 */
export function shownValue(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length <= MAX_SHOWN_LENGTH
    ? json
    : `${json.slice(0, MAX_SHOWN_LENGTH)}… (${json.length} characters)`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function label(path: string): string {
  return path === "" ? "the arguments" : `field '${path}'`;
}

function compile(schema: JsonSchema): Check {
  const checks: Check[] = [];
  const types =
    typeof schema.type === "string"
      ? [schema.type]
      : Array.isArray(schema.type)
        ? (schema.type as string[])
        : [];
  if (types.length > 0) {
    const expected = types.join(" or ");
    checks.push((value, path, problems) => {
      if (!types.some((type) => hasType(value, type))) {
        problems.push(`${label(path)} must be ${expected}, got ${describe(value)}`);
      }
    });
  }
  if (Array.isArray(schema.enum)) {
    const allowed = schema.enum as unknown[];
    checks.push((value, path, problems) => {
      if (!allowed.some((candidate) => Object.is(candidate, value))) {
        problems.push(`${label(path)} must be one of ${JSON.stringify(allowed)}, got ${shownValue(value)}`);
      }
    });
  }
  if ("const" in schema) {
    const expected = schema.const;
    checks.push((value, path, problems) => {
      if (!Object.is(expected, value)) {
        problems.push(`${label(path)} must be ${JSON.stringify(expected)}, got ${shownValue(value)}`);
      }
    });
  }
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const propertyChecks = Object.entries(properties)
    .filter(([, property]) => typeof property === "object" && property !== null)
    .map(([name, property]) => [name, compile(property)] as const);
  if (required.length > 0 || propertyChecks.length > 0) {
    checks.push((value, path, problems) => {
      if (!hasType(value, "object")) return;
      const record = value as Record<string, unknown>;
      // Own properties only: an absent `constructor` or `toString` must not read Object.prototype's.
      for (const name of required) {
        if (!Object.hasOwn(record, name) || record[name] === undefined)
          problems.push(`missing required field '${join(path, name)}'`);
      }
      for (const [name, check] of propertyChecks) {
        if (Object.hasOwn(record, name) && record[name] !== undefined)
          check(record[name], join(path, name), problems);
      }
    });
  }
  if (typeof schema.items === "object" && schema.items !== null && !Array.isArray(schema.items)) {
    const itemCheck = compile(schema.items as JsonSchema);
    checks.push((value, path, problems) => {
      if (!Array.isArray(value)) return;
      value.forEach((item, index) => {
        itemCheck(item, `${path}[${index}]`, problems);
      });
    });
  }
  if (checks.length === 0) return () => {};
  if (checks.length === 1) return checks[0] as Check;
  return (value, path, problems) => {
    for (const check of checks) check(value, path, problems);
  };
}

function join(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}
