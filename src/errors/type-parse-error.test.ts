import { describe, expect, it } from "vitest";
import { EmbabelError } from "./embabel-error.js";
import { TypeParseError } from "./type-parse-error.js";

describe("TypeParseError", () => {
  it("has a stable name, the type, the problems and a message joining them", () => {
    const error = new TypeParseError("AddRequest", ["a: expected number", "b: required"]);
    expect(error.name).toBe("TypeParseError");
    expect(error.typeName).toBe("AddRequest");
    expect(error.problems).toEqual(["a: expected number", "b: required"]);
    expect(error.message).toBe("Invalid AddRequest: a: expected number; b: required");
    expect(EmbabelError.isInstance(error)).toBe(true);
  });

  it("is recognised by isInstance, and other errors are not", () => {
    expect(TypeParseError.isInstance(new TypeParseError("T", []))).toBe(true);
    expect(TypeParseError.isInstance(new Error("Invalid T"))).toBe(false);
    expect(TypeParseError.isInstance(new EmbabelError("x"))).toBe(false);
  });
});
