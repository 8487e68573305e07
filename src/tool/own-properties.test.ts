import { describe, expect, it } from "vitest";
import { ownPropertiesFor, withoutPrototypes } from "./own-properties.js";

describe("withoutPrototypes", () => {
  it("copies objects at any depth to objects without a prototype, keeping every own key", () => {
    const copy = withoutPrototypes(JSON.parse('{"a":{"b":[{"__proto__":"p"}]}}')) as {
      a: { b: Record<string, unknown>[] };
    };
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(copy.a.b[0]?.constructor).toBeUndefined();
    expect(Object.hasOwn(copy.a.b[0] as object, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(copy.a.b[0], "__proto__")?.value).toBe("p");
  });
});

describe("ownPropertiesFor", () => {
  it("copies only for schemas that name an inherited property, decided once per schema", () => {
    const plain = { type: "object", properties: { q: { type: "string" } } };
    const odd = { type: "object", properties: { deep: { type: "object", required: ["toString"] } } };
    const value = { q: "x" };
    expect(ownPropertiesFor(plain)(value)).toBe(value);
    expect(ownPropertiesFor(plain)).toBe(ownPropertiesFor(plain));
    expect(Object.getPrototypeOf(ownPropertiesFor(odd)(value))).toBeNull();
  });
});
