import { describe, expect, it } from "vitest";
import { ReplanRequested } from "./replan-requested.js";
import { ToolControlFlowSignal } from "./tool-control-flow-signal.js";

describe("ReplanRequested", () => {
  it("carries its reason and is a control-flow signal", () => {
    const signal = new ReplanRequested("Routing decision made");
    expect(signal.reason).toBe("Routing decision made");
    expect(signal.message).toBe("Replan requested: Routing decision made");
    expect(ToolControlFlowSignal.isInstance(signal)).toBe(true);
    expect(ReplanRequested.isInstance(signal)).toBe(true);
  });

  it("runs its blackboard updater, a no-op by default", () => {
    const added: unknown[] = [];
    const blackboard = { add: (value: unknown) => added.push(value) };
    new ReplanRequested("r").blackboardUpdater(blackboard);
    new ReplanRequested("r", (board) => board.add("decision")).blackboardUpdater(blackboard);
    expect(added).toEqual(["decision"]);
  });
});

describe("ToolControlFlowSignal", () => {
  it("does not recognise ordinary errors", () => {
    expect(ToolControlFlowSignal.isInstance(new Error("x"))).toBe(false);
    expect(ToolControlFlowSignal.isInstance(undefined)).toBe(false);
  });
});
