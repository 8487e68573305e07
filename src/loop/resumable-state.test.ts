import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../testing/scripted-model.js";
import { OneShotPerLoopTool } from "../tool/one-shot-per-loop-tool.js";
import type { Tool } from "../tool/tool.js";
import { Tool as ToolFactory } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { ChainedToolInjectionStrategy } from "./chained-tool-injection-strategy.js";
import type { LoopWaits, WaitJournalEntry } from "./loop-waits.js";
import {
  captureLoopStates,
  isResumableState,
  type ResumableState,
  restoreStrategyStates,
  restoreToolStates,
} from "./resumable-state.js";
import { runToolLoop } from "./tool-loop.js";

/** A strategy counting something, resumable under `key`. */
class Counter implements ResumableState {
  count = 0;
  restored: unknown[] = [];
  constructor(
    readonly resumeKey: string,
    private readonly offers: readonly Tool[] = [],
  ) {}
  captureState(): unknown {
    return this.count === 0 ? undefined : { count: this.count };
  }
  restoreState(state: unknown): readonly Tool[] {
    this.restored.push(state);
    return this.offers;
  }
  evaluate() {
    this.count += 1;
    return undefined;
  }
}

const context = ToolCallContext.EMPTY.with(ToolCallContext.LOOP_ID_KEY, "loop-1");

describe("ResumableState", () => {
  it("recognises objects with a key and both methods only", () => {
    expect(isResumableState(new Counter("c"))).toBe(true);
    expect(isResumableState({ resumeKey: "c", captureState() {} })).toBe(false);
    expect(isResumableState(null)).toBe(false);
  });

  it("captures the parts of a chain, depth first, numbering a repeated key, leaving out parts with nothing", () => {
    const [a, b, c] = [new Counter("c"), new Counter("c"), new Counter("other")];
    a.count = 1;
    b.count = 2;
    const strategy = new ChainedToolInjectionStrategy([a, new ChainedToolInjectionStrategy([b, c])]);
    expect(captureLoopStates(strategy, [], context)).toEqual({ c: { count: 1 }, "c#2": { count: 2 } });
    expect(captureLoopStates(new ChainedToolInjectionStrategy([c]), [], context)).toBeUndefined();
  });

  it("restores each part from its own key only, and returns the tools they offer again", () => {
    const offered = ToolFactory.create("found", "Found", () => ToolResult.text("ok"));
    const [a, b] = [new Counter("c", [offered]), new Counter("d")];
    const tools = restoreStrategyStates(
      new ChainedToolInjectionStrategy([a, b]),
      { c: { count: 3 } },
      context,
    );
    expect(tools).toEqual([offered]);
    expect(a.restored).toEqual([{ count: 3 }]);
    expect(b.restored).toEqual([]);
    expect(restoreStrategyStates(a, undefined, context)).toEqual([]);
  });

  it("captures and restores a one-shot tool's use in the loop, through a wrapper", () => {
    const inner = ToolFactory.create("skill", "Loads a skill", () => ToolResult.text("body"));
    const first = new OneShotPerLoopTool(inner, "Use it.").withNote("a wrapper");
    expect(captureLoopStates(ChainedToolInjectionStrategy.withUnfolding(), [first], context)).toBeUndefined();
    return first.call("{}", context).then(() => {
      const states = captureLoopStates(ChainedToolInjectionStrategy.withUnfolding(), [first], context);
      expect(states).toEqual({ "tool:one-shot:skill": true });
      const fresh = new OneShotPerLoopTool(inner, "Use it.");
      restoreToolStates([fresh], states, context);
      return fresh.call("{}", context).then((result) => expect(result.content).toMatch(/^ALREADY LOADED/));
    });
  });
});

/** Waits kept in memory, as a process keeps them, for loops run one after the other; approvals once `approve()` was called. */
function memoryWaits() {
  const journal: (WaitJournalEntry | undefined)[] = [];
  let cursor = 0;
  let approved = false;
  const waits: LoopWaits = {
    enter: () => {
      const index = cursor++;
      return { index, entry: journal[index] };
    },
    record: (index, entry) => {
      journal[index] = entry;
    },
    approvalAnswer: () => (approved ? { approved: true } : undefined),
    decide: () => (approved ? { approved: true } : "ask"),
  };
  const approveAndRestart = () => {
    approved = true;
    cursor = 0;
  };
  return { waits, journal, approveAndRestart };
}

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Go" }] }];

describe("a one-shot tool across a wait", () => {
  it("does not run again in the resumed loop when it ran before the wait (a fresh tool instance)", async () => {
    let loads = 0;
    const skill = () =>
      new OneShotPerLoopTool(
        ToolFactory.create("skill", "Loads a skill", () => {
          loads += 1;
          return ToolResult.text("the body");
        }),
        "Use what you loaded.",
      );
    const gated = ToolFactory.requireApproval(
      ToolFactory.create("act", "Acts", () => ToolResult.text("acted")),
    );
    const model = new ScriptedModel([
      ScriptedModel.toolCall("skill", {}, { id: "s1" }),
      ScriptedModel.toolCall("act", {}, { id: "a1" }),
      ScriptedModel.toolCall("skill", {}, { id: "s2" }),
      ScriptedModel.text("done"),
    ]);
    const { waits, journal, approveAndRestart } = memoryWaits();
    await expect(runToolLoop({ model, prompt, tools: [skill(), gated], waits })).rejects.toThrow();
    expect(journal[0]?.kind).toBe("loop-suspended");
    approveAndRestart();
    const result = await runToolLoop({ model, prompt, tools: [skill(), gated], waits });
    expect(result.text).toBe("done");
    expect(loads).toBe(1);
    expect(JSON.stringify(model.requests[3]?.prompt.at(-1))).toContain("ALREADY LOADED");
  });
});
