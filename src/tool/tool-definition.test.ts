import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { normalizeToolName, validateToolName } from "./tool-definition.js";

describe("validateToolName", () => {
  it("accepts provider-safe names", () => {
    expect(validateToolName("get_weather-2")).toBe("get_weather-2");
    expect(validateToolName("a".repeat(64))).toHaveLength(64);
  });

  it("rejects bad names with a ConfigurationError naming the tool", () => {
    for (const name of ["", "has space", "dotted.name", "a".repeat(65)]) {
      expect(() => validateToolName(name)).toThrow(ConfigurationError);
    }
    expect(() => validateToolName("has space")).toThrow(/Invalid tool name 'has space'/);
  });
});

describe("normalizeToolName", () => {
  it("turns any text into a valid name", () => {
    expect(normalizeToolName("My API Reference")).toBe("my_api_reference");
    expect(normalizeToolName("!!!")).toBe("tool");
    expect(normalizeToolName("x".repeat(100))).toHaveLength(64);
  });
});
