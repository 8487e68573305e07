import { describe, expect, it } from "vitest";
import { EmbabelError } from "./embabel-error.js";
import { ProcessLostError } from "./process-lost-error.js";

describe("ProcessLostError", () => {
  it("names the process and the queue, and what to do", () => {
    const error = new ProcessLostError("run-1", "agents");
    expect(error.name).toBe("ProcessLostError");
    expect(error.processId).toBe("run-1");
    expect(error.queue).toBe("agents");
    expect(error.message).toMatch(/^Process run-1 is lost: its job is gone from queue 'agents' in Redis/);
    expect(EmbabelError.isInstance(error)).toBe(true);
  });

  it("is recognised by isInstance, and other errors are not", () => {
    expect(ProcessLostError.isInstance(new ProcessLostError("p", "q"))).toBe(true);
    expect(ProcessLostError.isInstance(new Error("Process p is lost"))).toBe(false);
  });
});
