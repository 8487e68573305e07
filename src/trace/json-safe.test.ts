import { describe, expect, it } from "vitest";
import { jsonSafe } from "./json-safe.js";

describe("jsonSafe", () => {
  it("keeps an own __proto__ key (from JSON.parse) as a field, without setting the prototype", () => {
    const parsed = JSON.parse('{"__proto__":{"isAdmin":true},"k":2}');
    const safe = jsonSafe({ args: parsed }) as { args: Record<string, unknown> };
    expect(Object.getPrototypeOf(safe.args)).toBe(Object.prototype);
    expect((safe.args as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(JSON.stringify(safe)).toBe('{"args":{"__proto__":{"isAdmin":true},"k":2}}');
  });
});
