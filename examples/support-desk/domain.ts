import { z } from "zod";
import { domainType } from "../../src/index.js";

/** How a ticket ended: what was found and what was done. */
export const Resolution = domainType(
  "Resolution",
  z.object({
    customer: z.string().describe("The customer's email"),
    orderId: z.string().describe("The order concerned"),
    diagnosis: z.string().describe("What went wrong"),
    action: z.string().describe("What was done about it"),
    refunded: z.boolean().describe("Whether money was refunded"),
  }),
);
/** A {@link Resolution} value. */
export type Resolution = z.output<typeof Resolution.schema>;

/** One order in the shop's records. */
export interface OrderRecord {
  readonly id: string;
  readonly item: string;
  readonly amount: number;
  readonly status: "delivered" | "in transit" | "returned";
  readonly note: string;
}
