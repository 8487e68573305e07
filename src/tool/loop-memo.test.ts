import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { LoopMemo } from "./loop-memo.js";
import { ToolCallContext } from "./tool-call-context.js";

const inLoop = (loopId: string) => ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: loopId });

describe("LoopMemo", () => {
  it("is true the first time a loop id is seen and false afterwards", () => {
    const memo = new LoopMemo();
    expect(memo.firstTimeIn(inLoop("a"))).toBe(true);
    expect(memo.firstTimeIn(inLoop("a"))).toBe(false);
    expect(memo.firstTimeIn(inLoop("b"))).toBe(true);
  });

  it("is always true without a loop id and does not track it", () => {
    const memo = new LoopMemo({ maxTracked: 1 });
    memo.firstTimeIn(inLoop("a"));
    expect(memo.firstTimeIn(ToolCallContext.EMPTY)).toBe(true);
    expect(memo.firstTimeIn()).toBe(true);
    expect(memo.firstTimeIn(ToolCallContext.of({ other: "x" }))).toBe(true);
    expect(memo.firstTimeIn(inLoop("a"))).toBe(false);
  });

  it("evicts the oldest inserted id past maxTracked", () => {
    const memo = new LoopMemo({ maxTracked: 2 });
    const seen = ["a", "b", "c", "c", "a"].map((id) => memo.firstTimeIn(inLoop(id)));
    expect(seen).toEqual([true, true, true, false, true]);
  });

  it("does not refresh an id when it is seen again", () => {
    const memo = new LoopMemo({ maxTracked: 2 });
    memo.firstTimeIn(inLoop("a"));
    memo.firstTimeIn(inLoop("b"));
    memo.firstTimeIn(inLoop("a"));
    memo.firstTimeIn(inLoop("c"));
    expect(memo.firstTimeIn(inLoop("a"))).toBe(true);
  });

  it("remembers 1024 ids by default", () => {
    const memo = new LoopMemo();
    expect(memo.maxTracked).toBe(1024);
    for (let i = 0; i < 1024; i++) memo.firstTimeIn(inLoop(`loop-${i}`));
    expect(memo.firstTimeIn(inLoop("loop-0"))).toBe(false);
    memo.firstTimeIn(inLoop("loop-1024"));
    expect(memo.firstTimeIn(inLoop("loop-0"))).toBe(true);
  });

  it("gives exactly one true for concurrent calls with one id", async () => {
    const memo = new LoopMemo();
    const results = await Promise.all(
      Array.from({ length: 32 }, async () => {
        await Promise.resolve();
        return memo.firstTimeIn(inLoop("same"));
      }),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("keeps instances independent", () => {
    const one = new LoopMemo();
    one.firstTimeIn(inLoop("a"));
    expect(new LoopMemo().firstTimeIn(inLoop("a"))).toBe(true);
  });

  it("forgets an id on request", () => {
    const memo = new LoopMemo();
    memo.firstTimeIn(inLoop("a"));
    memo.forget(inLoop("a"));
    expect(memo.firstTimeIn(inLoop("a"))).toBe(true);
  });

  it("rejects a non-positive maxTracked", () => {
    expect(() => new LoopMemo({ maxTracked: 0 })).toThrow(ConfigurationError);
  });
});
