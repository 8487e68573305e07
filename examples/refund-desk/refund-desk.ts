import { achievesGoal, action, agent, type OperationContext } from "../../src/index.js";
import { UserInput } from "../user-input.js";
import { Refund, RefundOutcome } from "./domain.js";
import { RefundTools } from "./refund-tools.js";

/**
 * Answers a refund request. The LLM looks the order up and calls
 * `issue_refund`, which waits for a person's approval: the process goes
 * `waiting` until someone answers (code, terminal, studio or MCP client),
 * then goes on from that very call.
 */
@agent({ name: "RefundDesk", description: "Refunds orders, with a person approving each refund" })
export class RefundDesk {
  @achievesGoal({ description: "The refund request has been answered" })
  @action({ input: UserInput, output: RefundOutcome, description: "Look up the order and refund it if due" })
  async handleRequest(request: UserInput, context: OperationContext): Promise<RefundOutcome> {
    const reply = await context
      .ai()
      .withToolObject(new RefundTools())
      .generateText(
        [
          "You handle refund requests. Look the order up with lookup_order, then refund what was paid with issue_refund.",
          "Then answer the customer in one sentence.",
          `Request: ${request.content}`,
        ].join("\n"),
      );
    const refund = context.blackboard.last(Refund);
    const orderId = refund?.orderId ?? /[A-Z]-\d{4}/.exec(request.content)?.[0] ?? "unknown";
    return RefundOutcome.create({ orderId, refundedCents: refund?.cents ?? 0, reply });
  }
}
