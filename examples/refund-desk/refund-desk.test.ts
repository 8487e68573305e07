import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { UserInput } from "../user-input.js";
import { example, RefundDesk, type RefundOutcome, refundDeskScript } from "./index.js";

async function start() {
  const model = new ScriptedModel(refundDeskScript());
  const platform = AgentPlatform.create({ models: { default: model } });
  const process = await platform.runAgent(
    platform.deploy(RefundDesk),
    UserInput.create({ content: example.sampleInput }),
  );
  return { model, platform, process };
}

describe("RefundDesk (on its script)", () => {
  it("looks the order up, then waits for approval before refunding", async () => {
    const { model, process } = await start();
    expect(process.status).toBe("waiting");
    expect(process.awaiting).toEqual([
      expect.objectContaining({
        kind: "approval",
        toolName: "issue_refund",
        arguments: { orderId: "A-1001", cents: 4900, reason: "Arrived damaged" },
        message: "Refund $49.00 for order A-1001?",
      }),
    ]);
    expect(model.requests).toHaveLength(2);
    expect(process.blackboard.last("Refund")).toBeUndefined();
  });

  it("refunds once approved, without asking the model again for the approved call", async () => {
    const { model, platform, process } = await start();
    const done = await platform.respond(process.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ orderId: "A-1001", refundedCents: 4900 });
    expect(model.requests).toHaveLength(3);
    expect(example.formatResult?.(done.result)).toBe(
      "A-1001 · refunded $49.00\nRefunded $49.00 for A-1001. The money will be back on your card in 3 days.",
    );
  });

  it("refunds the amount a person edited", async () => {
    const { platform, process } = await start();
    const done = await platform.respond(process.id, "r1", {
      approved: true,
      input: { orderId: "A-1001", cents: 2500, reason: "Partial refund" },
    });
    expect((done.result as RefundOutcome).refundedCents).toBe(2500);
  });

  it("apologises when the refund is denied", async () => {
    const { platform, process } = await start();
    const done = await platform.respond(process.id, "r1", { approved: false, reason: "needs a photo" });
    expect(done.result).toMatchObject({ refundedCents: 0, reply: expect.stringMatching(/^Sorry/) });
  });
});
