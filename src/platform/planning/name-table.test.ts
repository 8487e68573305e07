import { describe, expect, it } from "vitest";
import { NameTable } from "./name-table.js";

describe("NameTable", () => {
  it("gives dense ids in first-seen order and the same id to the same name", () => {
    const table = new NameTable();
    expect(["x", "y", "x", "z", "y"].map((name) => table.intern(name))).toEqual([0, 1, 0, 2, 1]);
    expect(table.names).toEqual(["x", "y", "z"]);
    expect(table.size).toBe(3);
  });

  it("finds interned names and answers -1 for others without adding them", () => {
    const table = new NameTable();
    table.intern("hasRun:a1");
    expect(table.find("hasRun:a1")).toBe(0);
    expect(table.find("hasRun:a2")).toBe(-1);
    expect(table.find("")).toBe(-1);
    expect(table.size).toBe(1);
  });

  it("matches names by content, not by string identity", () => {
    const table = new NameTable();
    const built = ["has", "Run:", "a7"].join("");
    table.intern(built);
    expect(table.find(`hasRun:a${3 + 4}`)).toBe(0);
  });

  it("keeps every name findable as it grows far past its expected size", () => {
    const table = new NameTable(1);
    const names = Array.from({ length: 20_000 }, (_, i) => (i % 2 === 0 ? `c${i}` : `hasRun:a${i}`));
    expect(names.map((name) => table.intern(name))).toEqual(names.map((_, index) => index));
    expect(names.map((name) => table.find(name))).toEqual(names.map((_, index) => index));
    expect(table.find("c1")).toBe(-1);
  });

  it("tells apart names that differ only in non-ASCII or invisible characters, and the empty name", () => {
    const table = new NameTable(2);
    const names = ["", "é", "e\u0301", "a\u0000b", "a", "😀", "\ud83d"];
    expect(names.map((name) => table.intern(name))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(names.map((name) => table.find(name))).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
