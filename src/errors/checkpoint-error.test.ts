import { describe, expect, it } from "vitest";
import { CheckpointError } from "./checkpoint-error.js";
import { EmbabelError } from "./embabel-error.js";

describe("CheckpointError", () => {
  it("names the process and the problem", () => {
    const error = new CheckpointError("run-7", "it is not JSON");
    expect(error.name).toBe("CheckpointError");
    expect(error.processId).toBe("run-7");
    expect(error.problem).toBe("it is not JSON");
    expect(error.message).toBe("Cannot read the checkpoint of process run-7: it is not JSON");
    expect(EmbabelError.isInstance(error)).toBe(true);
  });

  it("is recognised by isInstance, and other errors are not", () => {
    expect(CheckpointError.isInstance(new CheckpointError("p", "x"))).toBe(true);
    expect(CheckpointError.isInstance(new Error("Cannot read the checkpoint"))).toBe(false);
    expect(CheckpointError.isInstance(new EmbabelError("x"))).toBe(false);
  });
});
