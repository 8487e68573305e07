import { describe, expect, it } from "vitest";
import { TerminateAction } from "./terminate-action.js";
import { TerminateAgent } from "./terminate-agent.js";
import { ToolControlFlowSignal } from "./tool-control-flow-signal.js";

describe("TerminateAgent", () => {
  it("is a control-flow signal carrying its reason", () => {
    const signal = new TerminateAgent("user left");
    expect(signal).toMatchObject({
      name: "TerminateAgent",
      reason: "user left",
      message: "Agent terminated: user left",
    });
    expect(ToolControlFlowSignal.isInstance(signal)).toBe(true);
    expect(TerminateAgent.isInstance(signal)).toBe(true);
    expect(TerminateAgent.isInstance(new TerminateAction("x"))).toBe(false);
  });
});
