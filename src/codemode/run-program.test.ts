import { describe, expect, it } from "vitest";
import type { ProgramJournal } from "./program-journal.js";
import { type HostAnswer, type ProgramLimits, runProgram } from "./run-program.js";

const limits: ProgramLimits = {
  timeoutMs: 5000,
  memoryBytes: 32 * 1024 * 1024,
  maxToolCalls: 10,
  maxOutputChars: 1000,
};
const SOURCE = `const t0 = Date.now();
const r = Math.random();
const a = await tools.first({});
const b = await tools.second({ after: a });
return { t0, r, a, b, t1: Date.now(), d: new Date().getTime() };`;

describe("runProgram", () => {
  it("replays a journal: the same clock, random numbers and results, and no live call", async () => {
    const live: string[] = [];
    const call = async (_index: number, tool: string): Promise<HostAnswer<string>> => {
      live.push(tool);
      return tool === "second" ? { pending: "approve second" } : { ok: true, text: '"one"' };
    };
    const first = await runProgram({ source: SOURCE, toolNames: ["first", "second"], limits, call });
    expect(first.kind).toBe("pending");
    expect(live).toEqual(["first", "second"]);
    const journal = first.journal;
    expect(journal.entries.map((entry) => entry.tool)).toEqual(["first"]);
    live.length = 0;
    const run = (j: ProgramJournal) =>
      runProgram({
        source: SOURCE,
        toolNames: ["first", "second"],
        limits,
        journal: j,
        call: async (_index, tool) => {
          live.push(tool);
          return { ok: true, text: '"two"' };
        },
      });
    const second = await run(journal);
    const third = await run({
      ...journal,
      entries: [...(second.kind === "done" ? second.journal.entries : [])],
    });
    expect(live).toEqual(["second"]);
    expect(second.kind).toBe("done");
    const a = JSON.parse(second.kind === "done" ? second.output : "{}");
    const b = JSON.parse(third.kind === "done" ? third.output : "{}");
    expect(a).toEqual(b);
    expect(a.t0).toBe(journal.startedAt);
    expect(a.a).toBe("one");
    expect(a.d).toBe(a.t1);
  });

  it("a journal whose calls differ from the program's is divergence, answered in-band", async () => {
    const journal: ProgramJournal = {
      sourceHash: "",
      startedAt: 0,
      seed: 1,
      entries: [{ index: 0, tool: "other", args: "{}", outcome: { ok: true, text: "1" }, at: 0 }],
    };
    const bound = await runProgram({
      source: SOURCE,
      toolNames: ["first", "second"],
      limits,
      call: async () => ({ ok: true, text: "1" }),
    });
    const hash = bound.journal.sourceHash;
    const outcome = await runProgram({
      source: SOURCE,
      toolNames: ["first", "second"],
      limits,
      journal: { ...journal, sourceHash: hash },
      call: async () => ({ ok: true, text: "1" }),
    });
    expect(outcome).toMatchObject({ kind: "failed" });
    expect(outcome.kind === "failed" && outcome.message).toMatch(
      /^The program diverged from its earlier run at tool call #1: it called first\(\{\}\) where it had called other\(\{\}\)/,
    );
  });

  it("a journal of another source is not used", async () => {
    const live: string[] = [];
    const outcome = await runProgram({
      source: "return await tools.first({});",
      toolNames: ["first"],
      limits,
      journal: {
        sourceHash: "other",
        startedAt: 0,
        seed: 1,
        entries: [{ index: 0, tool: "first", args: "{}", outcome: { ok: true, text: '"old"' }, at: 0 }],
      },
      call: async (_i, tool) => {
        live.push(tool);
        return { ok: true, text: '"new"' };
      },
    });
    expect(outcome).toMatchObject({ kind: "done", output: "new" });
    expect(live).toEqual(["first"]);
  });
});
