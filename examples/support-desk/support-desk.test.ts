import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { UserInput } from "../user-input.js";
import {
  diagnoseIssue,
  example,
  Resolution,
  refundWorkflow,
  SupportDesk,
  supportDeskScript,
} from "./index.js";

async function resolve(ticket: string) {
  const model = new ScriptedModel(supportDeskScript());
  const platform = AgentPlatform.create({ models: { default: model } });
  const process = await platform.runAgent(
    platform.deploy(SupportDesk),
    UserInput.create({ content: ticket }),
  );
  return { model, process };
}

const diagnosisTools = ["lookup_customer", "check_order", "propose_fix", "recent_orders", "account_tier"];
const refundTools = ["verify_purchase", "issue_refund", "notify_customer", "refund_status"];

describe("SupportDesk (on its recorded script)", () => {
  it("runs the playbook's and the state machine's nested loops inside one action", async () => {
    const { model, process } = await resolve(example.sampleInput);
    expect(process.status).toBe("completed");
    expect(model.remaining).toBe(0);
    expect(model.toolNamesPerRequest).toEqual([
      ["diagnose_issue", "refund_workflow"],
      ...Array(6).fill(diagnosisTools),
      ["diagnose_issue", "refund_workflow"],
      ...Array(5).fill(refundTools),
      ["diagnose_issue", "refund_workflow"],
    ]);
    expect(process.llmInvocations).toBe(14);
  });

  it("resolves the sample ticket with a refund, after the locked and wrong-state attempts", async () => {
    const { model, process } = await resolve(example.sampleInput);
    const resolution = process.result as Resolution;
    expect(Resolution.is(resolution)).toBe(true);
    expect(resolution).toMatchObject({ customer: "ada@example.com", orderId: "A-1001", refunded: true });
    const answers = model.requests.flatMap((request) => request.toolResults.map((part) => part.output));
    expect(answers).toContainEqual({
      type: "text",
      value: "This tool is not yet available. You must first use: lookup_customer",
    });
    expect(answers).toContainEqual({
      type: "text",
      value:
        "This tool is not available in the current state (REQUESTED). It is only available in state: APPROVED",
    });
    expect(answers).toContainEqual({
      type: "text",
      value: "Refunded $49.00 for A-1001\n\n[Current state: REFUNDED]",
    });
  });

  it("follows the ticket: a delayed order is diagnosed and not refunded", async () => {
    const { model, process } = await resolve("alan@example.com here: where is my chess clock, order B-2002?");
    expect(process.result).toEqual({
      customer: "alan@example.com",
      orderId: "B-2002",
      diagnosis: "Order B-2002 is in transit; delayed at the depot. No refund is due.",
      action: "No action needed",
      refunded: false,
    });
    expect(model.toolNamesPerRequest.flat()).not.toContain("verify_purchase");
  });

  it("describes its agentic tools", () => {
    const diagnose = diagnoseIssue();
    expect(diagnose.unlockedToolCount).toBe(1);
    expect(diagnose.lockedToolCount).toBe(2);
    expect(refundWorkflow().totalStateTools).toBe(3);
    expect(example.name).toBe("support-desk");
  });
});
