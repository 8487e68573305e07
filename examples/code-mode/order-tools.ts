import { z } from "zod";
import { Tool } from "../../src/index.js";

/** One order of the example's shop. */
export interface Order {
  readonly id: number;
  readonly customer: string;
  readonly status: "delivered" | "returned";
  readonly items: readonly { readonly title: string; readonly price: number }[];
  readonly refund: number;
}

const CUSTOMERS = ["Ada", "Grace", "Alan", "Edsger", "Barbara"];

/** Order `id` (1 to 20): order n owes a refund of n × 7. */
export function orderOf(id: number): Order {
  return {
    id,
    customer: CUSTOMERS[id % CUSTOMERS.length] ?? "Ada",
    status: id % 3 === 0 ? "returned" : "delivered",
    items: [
      { title: "Noise-cancelling headphones", price: 199 },
      { title: "USB-C cable", price: 12.5 },
    ],
    refund: id * 7,
  };
}

/** `get_order`: looks one order up (the tool the program calls 20 times). */
export const getOrder = Tool.fromFunction(
  "get_order",
  "Looks up an order by id: customer, status, items and the refund owed",
  z.object({ id: z.number().int().min(1).max(20).describe("The order id, 1 to 20") }),
  z.any(),
  async ({ id }) => orderOf(id),
);
