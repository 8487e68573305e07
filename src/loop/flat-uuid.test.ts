import { describe, expect, it } from "vitest";
import { flatUuid } from "./flat-uuid.js";

describe("flatUuid", () => {
  it("returns a distinct version 4 UUID each time", () => {
    const ids = Array.from({ length: 100 }, () => flatUuid());
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(100);
  });
});
