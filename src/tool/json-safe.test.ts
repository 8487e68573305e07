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

  it.each([
    ["a string", "text", "text"],
    ["a boolean", false, false],
    ["a finite number", 2.5, 2.5],
    ["NaN", Number.NaN, "NaN"],
    ["Infinity", Number.POSITIVE_INFINITY, "Infinity"],
    ["a bigint", 12345678901234567890n, "12345678901234567890"],
    ["null", null, null],
    ["undefined", undefined, undefined],
    ["a function", () => 1, undefined],
    ["a symbol", Symbol("s"), undefined],
    ["a date", new Date("2026-12-03T10:00:00.000Z"), "2026-12-03T10:00:00.000Z"],
    ["an error", new TypeError("bad input"), { name: "TypeError", message: "bad input" }],
    ["a typed array", new Uint8Array(3), "[binary, 3 bytes]"],
    ["an ArrayBuffer", new ArrayBuffer(5), "[binary, 5 bytes]"],
    ["a URL", new URL("https://example.com/a?b=1"), "https://example.com/a?b=1"],
    ["a set", new Set([1, "two"]), [1, "two"]],
    [
      "a map",
      new Map<unknown, unknown>([
        [1, "one"],
        ["k", new Set([2])],
      ]),
      { 1: "one", k: [2] },
    ],
  ])("converts %s", (_, value, expected) => {
    expect(jsonSafe(value)).toStrictEqual(expected);
  });

  it("drops what JSON has no value for from objects, and makes it null in arrays", () => {
    const value = { keep: 1, gone: undefined, fn: () => 1, sym: Symbol("s"), list: [undefined, () => 1, 3] };
    expect(jsonSafe(value)).toStrictEqual({ keep: 1, list: [null, null, 3] });
  });

  it("marks a cycle '[Circular]' but keeps an object seen twice without a cycle", () => {
    const shared = { id: 7 };
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const list: unknown[] = [1];
    list.push(list);
    expect(jsonSafe({ a: shared, b: shared, cyclic, list })).toStrictEqual({
      a: { id: 7 },
      b: { id: 7 },
      cyclic: { name: "loop", self: "[Circular]" },
      list: [1, "[Circular]"],
    });
  });

  it("returns plain objects whose fields can be listed, changed and deleted, like JSON.parse's", () => {
    const safe = jsonSafe({ k: 1, gone: 2 }) as Record<string, unknown>;
    expect(JSON.stringify(safe)).toBe('{"k":1,"gone":2}');
    safe.k = 2;
    delete safe.gone;
    expect(safe).toStrictEqual({ k: 2 });
  });
});
