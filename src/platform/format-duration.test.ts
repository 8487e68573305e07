import { describe, expect, it } from "vitest";
import { formatDuration } from "./format-duration.js";

describe("formatDuration", () => {
  it("uses whole milliseconds, then seconds with one decimal, then minutes and seconds", () => {
    expect(formatDuration(0.2)).toBe("<1ms");
    expect(formatDuration(1.3544799999999668)).toBe("1ms");
    expect(formatDuration(850)).toBe("850ms");
    expect(formatDuration(1500)).toBe("1.5s");
    expect(formatDuration(125_000)).toBe("2m 5s");
  });

  it("carries at each boundary instead of printing 1000ms, 60.0s or 1m 60s", () => {
    expect(formatDuration(999.6)).toBe("1.0s");
    expect(formatDuration(59_960)).toBe("1m 0s");
    expect(formatDuration(119_700)).toBe("2m 0s");
  });
});
