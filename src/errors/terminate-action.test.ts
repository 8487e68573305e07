import { describe, expect, it } from "vitest";
import { TerminateAction } from "./terminate-action.js";
import { TerminateAgent } from "./terminate-agent.js";
import { ToolControlFlowSignal } from "./tool-control-flow-signal.js";

describe("TerminateAction", () => {
  it("is a control-flow signal carrying its reason", () => {
    const signal = new TerminateAction("skip this step");
    expect(signal).toMatchObject({
      name: "TerminateAction",
      reason: "skip this step",
      message: "Action terminated: skip this step",
    });
    expect(ToolControlFlowSignal.isInstance(signal)).toBe(true);
    expect(TerminateAction.isInstance(signal)).toBe(true);
    expect(TerminateAction.isInstance(new TerminateAgent("x"))).toBe(false);
  });
});
