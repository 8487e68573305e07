import { z } from "zod";
import { domainType } from "../../src/index.js";

/** A refund that was paid: added to the blackboard by the `issue_refund` tool. */
export const Refund = domainType(
  "Refund",
  z.object({ orderId: z.string(), cents: z.number().int(), reason: z.string() }),
);
/** A {@link Refund} value. */
export type Refund = z.output<typeof Refund.schema>;

/** How a refund request ended. */
export const RefundOutcome = domainType(
  "RefundOutcome",
  z.object({
    orderId: z.string().describe("The order concerned"),
    refundedCents: z.number().int().describe("What was refunded, in cents (0 when nothing was)"),
    reply: z.string().describe("The answer to the customer"),
  }),
);
/** A {@link RefundOutcome} value. */
export type RefundOutcome = z.output<typeof RefundOutcome.schema>;
