import { describe, expect, it } from "vitest";
import type { FinishedLoop, WaitJournalEntry } from "../loop/loop-waits.js";
import { ProcessWaits } from "./process-waits.js";

const loop = (loopId: string): FinishedLoop => ({
  loopId,
  text: loopId,
  prompt: [],
  iterations: 1,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  returnedDirect: false,
});
const done = (loopId: string, key?: string): WaitJournalEntry => ({
  kind: "loop-done",
  loop: loop(loopId),
  ...(key === undefined ? {} : { key }),
});
const waitsWith = (journal: (WaitJournalEntry | null)[]) =>
  new ProcessWaits({ journal, open: [], answers: [], nextId: 1 });

describe("ProcessWaits journal slots claimed by key", () => {
  it("finds a key's own slot wherever a previous run put it (concurrent calls started in the other order)", () => {
    const waits = waitsWith([done("top"), done("A", "k/1.0#0"), done("B", "k/1.1#0")]);
    waits.actionStarted();
    expect(waits.enter().entry).toEqual(done("top"));
    expect(waits.enter("k/1.1")).toMatchObject({ index: 2, key: "k/1.1#0", entry: done("B", "k/1.1#0") });
    expect(waits.enter("k/1.0")).toMatchObject({ index: 1, key: "k/1.0#0", entry: done("A", "k/1.0#0") });
  });

  it("counts a key's claims: a call's second loop gets its second slot", () => {
    const waits = waitsWith([done("first", "k/1.0#0"), done("second", "k/1.0#1")]);
    waits.actionStarted();
    expect(waits.enter("k/1.0").entry).toEqual(done("first", "k/1.0#0"));
    expect(waits.enter("k/1.0").entry).toEqual(done("second", "k/1.0#1"));
    waits.actionStarted();
    expect(waits.enter("k/1.0").entry).toEqual(done("first", "k/1.0#0"));
  });

  it("never hands out another key's slot: a key with none gets a fresh slot past the others", () => {
    const waits = waitsWith([done("A", "k/1.0#0")]);
    waits.actionStarted();
    const claimed = waits.enter("k/1.1");
    expect(claimed).toEqual({ index: 1, entry: undefined, key: "k/1.1#0" });
    expect(waits.enter("k/1.2").index).toBe(2);
  });

  it("without a key, claims slots in order as before", () => {
    const waits = waitsWith([done("one"), done("two")]);
    waits.actionStarted();
    expect(waits.enter()).toEqual({ index: 0, entry: done("one") });
    expect(waits.enter()).toEqual({ index: 1, entry: done("two") });
    expect(waits.enter()).toEqual({ index: 2, entry: undefined });
  });
});
