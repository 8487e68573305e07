import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { UserInput } from "../user-input.js";
import { type AuditReport, example, RefundAudit, refundAuditScript } from "./index.js";

describe("RefundAudit (on its script)", () => {
  it("answers with one program over 20 orders: two model calls, only the sum sent back", async () => {
    const model = new ScriptedModel(refundAuditScript());
    const platform = AgentPlatform.create({ models: { default: model } });
    const process = await platform.runAgent(
      platform.deploy(RefundAudit),
      UserInput.create({ content: example.sampleInput }),
    );
    expect(process.status).toBe("completed");
    expect((process.result as AuditReport).answer).toBe(
      "13 orders owe more than $50 each: $1274 in refunds.",
    );
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.toolNames).toEqual(["run_code"]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: '{"orders":13,"total":1274}',
    });
  });
});
