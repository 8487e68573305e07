import { achievesGoal, action, agent, CodeModeTool, type OperationContext } from "../../src/index.js";
import { UserInput } from "../user-input.js";
import { AuditReport } from "./domain.js";
import { getOrder } from "./order-tools.js";

/**
 * Audits refunds with code mode: the LLM gets one `run_code` tool whose
 * description declares `get_order` in TypeScript, writes a program that looks
 * up the 20 orders and sums the refunds over the threshold, and reads only the
 * program's small result (two model calls instead of twenty-one).
 */
@agent({ name: "RefundAudit", description: "Sums refunds over many orders with one program" })
export class RefundAudit {
  @achievesGoal({ description: "The refunds have been audited" })
  @action({ input: UserInput, output: AuditReport, description: "Audit the refunds the user asks about" })
  async audit(request: UserInput, context: OperationContext): Promise<AuditReport> {
    const runCode = CodeModeTool.of("run_code", "Runs a program over the shop's orders.", [getOrder]);
    const answer = await context
      .ai()
      .withTools([runCode])
      .generateText(
        [
          "Answer with run_code: write one program that looks up every order needed and computes the answer.",
          `Request: ${request.content}`,
        ].join("\n"),
      );
    return AuditReport.create({ answer });
  }
}
