import { describe, expect, it } from "vitest";
import { ConfigurationError } from "./configuration-error.js";
import { EmbabelError } from "./embabel-error.js";

describe("ConfigurationError", () => {
  it("has a stable name, its message and cause, and is an EmbabelError", () => {
    const cause = new Error("root");
    const error = new ConfigurationError("Fix this", { cause });
    expect(error.name).toBe("ConfigurationError");
    expect(error.message).toBe("Fix this");
    expect(error.cause).toBe(cause);
    expect(EmbabelError.isInstance(error)).toBe(true);
  });

  it("is recognised by isInstance across copies, and other errors are not", () => {
    const lookalike = Object.assign(new EmbabelError("x"), { name: "ConfigurationError" });
    expect(ConfigurationError.isInstance(new ConfigurationError("x"))).toBe(true);
    expect(ConfigurationError.isInstance(lookalike)).toBe(true);
    expect(ConfigurationError.isInstance(new Error("x"))).toBe(false);
    expect(ConfigurationError.isInstance(new EmbabelError("x"))).toBe(false);
  });
});
