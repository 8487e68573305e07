/**
 * `value` as plain JSON data: errors become `{ name, message }`, maps and sets
 * become objects and arrays, binary data a short note, bigints strings,
 * functions and symbols are dropped, and a repeated (cyclic) object becomes
 * `"[Circular]"`.
 */
export function jsonSafe(value: unknown): unknown {
  return convert(value, new WeakSet());
}

function convert(value: unknown, seen: WeakSet<object>): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : String(value);
    case "bigint":
      return value.toString();
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (value === null) return null;
  const object = value as object;
  if (seen.has(object)) return "[Circular]";
  if (object instanceof Date) return object.toISOString();
  if (object instanceof Error) return { name: object.name, message: object.message };
  if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) {
    return `[binary, ${object.byteLength} bytes]`;
  }
  if (object instanceof URL) return object.href;
  seen.add(object);
  try {
    if (Array.isArray(object) || object instanceof Set) {
      return [...object].map((item) => convert(item, seen) ?? null);
    }
    if (object instanceof Map) {
      return Object.fromEntries([...object].map(([key, item]) => [String(key), convert(item, seen)]));
    }
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(object)) {
      const converted = convert(item, seen);
      // defineProperty: an own `__proto__` key (JSON.parse makes them) must stay a field, not become the prototype.
      if (converted !== undefined)
        Object.defineProperty(result, key, {
          value: converted,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return result;
  } finally {
    seen.delete(object);
  }
}
