import { describe, expect, it } from "vitest";
import { formatCount, formatDuration, formatUsd } from "./report-format.js";

describe("formatDuration", () => {
  it("prints hours, minutes and seconds from an hour", () => {
    expect(formatDuration(3_723_000)).toBe("1h 2m 3s");
    expect(formatDuration(3_600_000)).toBe("1h 0m 0s");
  });

  it("prints minutes and seconds from a minute", () => {
    expect(formatDuration(125_000)).toBe("2m 5s");
    expect(formatDuration(60_999)).toBe("1m 0s");
  });

  it("prints seconds with tenths from a second", () => {
    expect(formatDuration(1_500)).toBe("1.5s");
    expect(formatDuration(1_099)).toBe("1.0s");
    expect(formatDuration(59_999)).toBe("59.9s");
  });

  it("prints milliseconds below a second", () => {
    expect(formatDuration(250)).toBe("250ms");
    expect(formatDuration(0)).toBe("0ms");
    expect(formatDuration(999.9)).toBe("999ms");
  });
});

describe("formatCount", () => {
  it("groups thousands with commas", () => {
    expect(formatCount(1_000_000)).toBe("1,000,000");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1234)).toBe("1,234");
    expect(formatCount(-1500)).toBe("-1,500");
  });
});

describe("formatUsd", () => {
  it("prints a fixed number of decimals", () => {
    expect(formatUsd(2, 4)).toBe("2.0000");
    expect(formatUsd(0.000123, 6)).toBe("0.000123");
    expect(formatUsd(-0.25, 4)).toBe("-0.2500");
  });
});
