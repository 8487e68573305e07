import { describe, expect, it } from "vitest";
import { parseJsonPrefix } from "./json-prefix.js";

describe("parseJsonPrefix", () => {
  it("reads a whole JSON text like JSON.parse", () => {
    const text = JSON.stringify({ a: [1, -2.5e3, true, false, null], b: { c: 'q"\\\n\tü\u0001' } });
    expect(parseJsonPrefix(text)).toEqual(JSON.parse(text));
  });

  it("keeps what is complete and cuts the value where the text stops", () => {
    expect(
      parseJsonPrefix('{"seq":3,"type":"tool-call-end","result":{"kind":"text","content":"abcd', " [cut]"),
    ).toEqual({
      seq: 3,
      type: "tool-call-end",
      result: { kind: "text", content: "abcd [cut]" },
    });
    expect(parseJsonPrefix('{"a":[1,2,"x\\u00')).toEqual({ a: [1, 2, "x…"] });
    expect(parseJsonPrefix('{"a":1,"b":12')).toEqual({ a: 1 });
    expect(parseJsonPrefix('{"a":1,"b"')).toEqual({ a: 1 });
    expect(parseJsonPrefix('{"a":1,"b":nu')).toEqual({ a: 1 });
  });

  it("keeps __proto__ as an own key", () => {
    const value = parseJsonPrefix('{"__proto__":{"x":1},"y":2}') as Record<string, unknown>;
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it("throws a SyntaxError for text that is not the start of JSON", () => {
    expect(() => parseJsonPrefix("hello")).toThrow(SyntaxError);
    expect(() => parseJsonPrefix('{"a":1}}')).toThrow(SyntaxError);
    expect(() => parseJsonPrefix('{"a" 1')).toThrow(SyntaxError);
  });
});
