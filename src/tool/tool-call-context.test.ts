import { describe, expect, it } from "vitest";
import { ToolCallContext } from "./tool-call-context.js";

describe("ToolCallContext", () => {
  it("returns the EMPTY singleton for no entries", () => {
    expect(ToolCallContext.of()).toBe(ToolCallContext.EMPTY);
    expect(ToolCallContext.of({})).toBe(ToolCallContext.EMPTY);
    expect(ToolCallContext.of(new Map())).toBe(ToolCallContext.EMPTY);
  });

  it("reads entries with get, has, entries, size and isEmpty", () => {
    const context = ToolCallContext.of(
      new Map<string, unknown>([
        ["tenantId", "acme"],
        ["retries", 3],
      ]),
    );
    expect(context.get("tenantId")).toBe("acme");
    expect(context.get("missing")).toBeUndefined();
    expect(context.has("retries")).toBe(true);
    expect(context.has("missing")).toBe(false);
    expect([...context.entries()]).toEqual([
      ["tenantId", "acme"],
      ["retries", 3],
    ]);
    expect([context.size, context.isEmpty, ToolCallContext.EMPTY.isEmpty]).toEqual([2, false, true]);
  });

  it("copies the entries it is made from, and returns a context given to it as is", () => {
    const source: Record<string, unknown> = { tenantId: "acme" };
    const context = ToolCallContext.of(source);
    source.tenantId = "other";
    source.authToken = "xyz";
    expect(context.toRecord()).toEqual({ tenantId: "acme" });
    expect(ToolCallContext.of(context)).toBe(context);
  });

  it("lets the other context win on merge", () => {
    const merged = ToolCallContext.of({ tenantId: "acme", key: "old" }).merge({
      key: "new",
      authToken: "xyz",
    });
    expect(merged.toRecord()).toEqual({ tenantId: "acme", key: "new", authToken: "xyz" });
  });

  it("returns the same instance when merging with EMPTY either way", () => {
    const context = ToolCallContext.of({ a: 1 });
    expect(context.merge(ToolCallContext.EMPTY)).toBe(context);
    expect(ToolCallContext.EMPTY.merge(context)).toBe(context);
  });

  it("is immutable: merge and with leave the original unchanged", () => {
    const context = ToolCallContext.of({ a: 1 });
    context.with("b", 2);
    context.merge({ a: 3 });
    expect(context.toRecord()).toEqual({ a: 1 });
  });

  it("reads the loop id from LOOP_ID_KEY", () => {
    expect(ToolCallContext.EMPTY.loopId()).toBeUndefined();
    expect(ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: "loop-1" }).loopId()).toBe("loop-1");
    expect(ToolCallContext.LOOP_ID_KEY).toBe("embabel.toolLoopId");
  });

  it("compares by entries and prints keys and values", () => {
    expect(ToolCallContext.of({ a: 1 }).equals(ToolCallContext.of({ a: 1 }))).toBe(true);
    expect(ToolCallContext.of({ a: 1 }).equals(ToolCallContext.of({ a: 2 }))).toBe(false);
    expect(ToolCallContext.of({ a: 1, b: "x" }).toString()).toBe("ToolCallContext({a=1, b=x})");
    expect(ToolCallContext.of({ a: 1 }).getOrDefault("z", 9)).toBe(9);
  });
});
