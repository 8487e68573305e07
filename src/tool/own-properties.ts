import type { JsonSchema } from "./input-schema.js";

/** Names every plain object inherits (`constructor`, `toString`, `__proto__`, …): read on an object without them, they give the prototype's value. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** How deep {@link withoutPrototypes} copies (the loop refuses arguments nested deeper before any tool runs). */
const MAX_DEPTH = 64;

const readers = new WeakMap<object, (value: unknown) => unknown>();
const identity = (value: unknown): unknown => value;

/** Whether `schema` names an inherited property (`constructor`, `toString`, …) in any `properties` or `required`. */
function namesInherited(schema: JsonSchema): boolean {
  const stack: unknown[] = [schema];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    const properties = record.properties;
    if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
      for (const name of Object.keys(properties)) if (INHERITED.has(name)) return true;
    }
    const required = record.required;
    if (Array.isArray(required) && required.some((name) => INHERITED.has(name))) return true;
    for (const key of Object.keys(record)) stack.push(record[key]);
  }
  return false;
}

/**
 * A JSON value with every object copied to one without a prototype, so a
 * reader (zod) sees only the properties the model sent: an absent
 * `constructor` or `toString` reads `undefined`, not `Object.prototype`'s.
 */
export function withoutPrototypes(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => withoutPrototypes(item, depth + 1));
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value))
    copy[key] = withoutPrototypes((value as Record<string, unknown>)[key], depth + 1);
  return copy;
}

/**
 * What to apply to parsed arguments before a reader that does not check own
 * properties (zod) sees them: {@link withoutPrototypes} when `schema` names an
 * inherited property such as `constructor`, else nothing (the common case
 * costs nothing per call). Decided once per schema object.
 */
export function ownPropertiesFor(schema: JsonSchema): (value: unknown) => unknown {
  let reader = readers.get(schema);
  if (reader === undefined) {
    reader = namesInherited(schema) ? (value) => withoutPrototypes(value) : identity;
    readers.set(schema, reader);
  }
  return reader;
}
