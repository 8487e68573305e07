import { describe, expect, it } from "vitest";
import { flatUuid } from "./flat-uuid.js";

describe("flatUuid", () => {
  it("returns a distinct version 4 UUID each time, across refills of its random pool", () => {
    const ids = Array.from({ length: 1000 }, () => flatUuid());
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(1000);
  });

  it("uses every hex digit in the random positions", () => {
    const digits = new Set(
      Array.from({ length: 200 }, () => flatUuid())
        .join("")
        .replaceAll("-", ""),
    );
    expect([...digits].sort().join("")).toBe("0123456789abcdef");
  });
});
