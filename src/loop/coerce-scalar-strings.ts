import type { JsonSchema } from "../tool/input-schema.js";

/** Replaces, in place, the strings the schema wants as numbers, integers or booleans; true when something changed. */
type Coerce = (value: unknown) => boolean;

const NOTHING: Coerce = () => false;
const compiled = new WeakMap<object, Coerce>();
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A coercer for arguments of `schema`: where the schema asks for a number,
 * an integer or a boolean (and not also for a string), a string that parses
 * exactly as one (`"5"`, `"-2.5"`, `"1e3"`, `"true"`) becomes that value, in
 * objects' properties and arrays' items at any depth. Small models often
 * quote numbers; anything else is left for validation to answer. Compiled
 * once per schema object.
 */
export function scalarStringCoercer(schema: JsonSchema): Coerce {
  let coerce = compiled.get(schema);
  if (!coerce) {
    coerce = compile(schema);
    compiled.set(schema, coerce);
  }
  return coerce;
}

function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return Array.isArray(branches)
    ? branches.flatMap((branch) => (isSchema(branch) ? typesOf(branch) : []))
    : [];
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The scalar a string becomes for `types`, or `undefined` to leave it. */
function scalarFor(types: readonly string[]): ((text: string) => unknown) | undefined {
  if (types.includes("string")) return undefined;
  const number = types.includes("number");
  const integer = types.includes("integer");
  const boolean = types.includes("boolean");
  if (!number && !integer && !boolean) return undefined;
  return (text) => {
    if (boolean && (text === "true" || text === "false")) return text === "true";
    if ((number || integer) && NUMBER.test(text)) {
      const parsed = Number(text);
      if (Number.isFinite(parsed) && (number || Number.isInteger(parsed))) return parsed;
    }
    return undefined;
  };
}

/** Coerces `container[key]` with `scalar` or `nested`; true when it changed. */
function coerceSlot(
  container: Record<string | number, unknown>,
  key: string | number,
  scalar: ((text: string) => unknown) | undefined,
  nested: Coerce,
): boolean {
  const value = container[key];
  if (typeof value === "string") {
    const replaced = scalar?.(value);
    if (replaced === undefined) return false;
    container[key] = replaced;
    return true;
  }
  return nested(value);
}

function compile(schema: JsonSchema): Coerce {
  const properties = isSchema(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
  const slots = Object.entries(properties)
    .filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]))
    .map(([name, property]) => ({ name, scalar: scalarFor(typesOf(property)), nested: compile(property) }))
    .filter((slot) => slot.scalar !== undefined || slot.nested !== NOTHING);
  const items = isSchema(schema.items) ? (schema.items as JsonSchema) : undefined;
  const itemScalar = items ? scalarFor(typesOf(items)) : undefined;
  const itemNested = items ? compile(items) : NOTHING;
  const hasItems = itemScalar !== undefined || itemNested !== NOTHING;
  if (slots.length === 0 && !hasItems) return NOTHING;
  return (value) => {
    if (typeof value !== "object" || value === null) return false;
    let changed = false;
    if (Array.isArray(value)) {
      if (!hasItems) return false;
      for (let index = 0; index < value.length; index += 1) {
        if (coerceSlot(value as unknown as Record<number, unknown>, index, itemScalar, itemNested))
          changed = true;
      }
      return changed;
    }
    const record = value as Record<string, unknown>;
    for (const slot of slots) {
      if (Object.hasOwn(record, slot.name) && coerceSlot(record, slot.name, slot.scalar, slot.nested))
        changed = true;
    }
    return changed;
  };
}
