import { z } from "zod";
import { AgentProcess, llmTool } from "../../src/index.js";
import { Refund } from "./domain.js";

/** The shop's orders (amounts in cents). */
export const ORDERS: Readonly<Record<string, { item: string; cents: number }>> = {
  "A-1001": { item: "Telescope", cents: 4900 },
  "A-1002": { item: "Star chart", cents: 1200 },
};

/**
 * The desk's tools. `issue_refund` moves money, so a person approves each
 * call: the run waits (`embabel-ts run` asks on a terminal, or takes
 * `--approve-all` / `--deny-all`) and the refund runs only once approved,
 * with the arguments as approved (a person may edit the amount).
 */
export class RefundTools {
  @llmTool({
    description: "Looks up an order: its item and the amount paid, in cents",
    input: z.object({ orderId: z.string().describe("The order id, such as A-1001") }),
  })
  lookup_order(input: { orderId: string }): string {
    const order = ORDERS[input.orderId];
    return order ? JSON.stringify({ orderId: input.orderId, ...order }) : `No order ${input.orderId}.`;
  }

  @llmTool({
    description: "Refunds an order (needs a person's approval)",
    input: z.object({
      orderId: z.string().describe("The order id"),
      cents: z.number().int().positive().describe("The amount to refund, in cents"),
      reason: z.string().describe("Why the customer is refunded"),
    }),
    requiresApproval: {
      message: (input) => {
        const { orderId, cents } = input as { orderId: string; cents: number };
        return `Refund $${(cents / 100).toFixed(2)} for order ${orderId}?`;
      },
    },
  })
  issue_refund(input: { orderId: string; cents: number; reason: string }): string {
    // The refund is kept on the blackboard: it survives the wait (the action runs again once answered).
    AgentProcess.current()?.addObject(Refund.create(input));
    return `Refunded $${(input.cents / 100).toFixed(2)} for ${input.orderId}.`;
  }
}
