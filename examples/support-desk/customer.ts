import { llmTool } from "../../src/index.js";
import type { OrderRecord } from "./domain.js";

/**
 * A customer record, returned by `lookup_customer`. Its `@llmTool` methods
 * become tools once one customer has been retrieved (tool chaining).
 */
export class Customer {
  constructor(
    readonly email: string,
    readonly name: string,
    readonly tier: "standard" | "gold",
    readonly orders: readonly OrderRecord[],
  ) {}

  @llmTool({ name: "recent_orders", description: "List this customer's recent orders" })
  recentOrders(): string {
    return this.orders
      .map((order) => `${order.id}: ${order.item} ($${order.amount.toFixed(2)}, ${order.status})`)
      .join("; ");
  }

  @llmTool({ name: "account_tier", description: "The customer's loyalty tier and what it entitles them to" })
  accountTier(): string {
    return this.tier === "gold"
      ? "gold: refunds without return shipping"
      : "standard: refunds after the item is returned";
  }
}

/** The shop's customers, by email. */
export const CUSTOMERS: ReadonlyMap<string, Customer> = new Map(
  [
    new Customer("ada@example.com", "Ada Lovelace", "gold", [
      {
        id: "A-1001",
        item: "Brass telescope",
        amount: 49,
        status: "delivered",
        note: "courier reported a dented box",
      },
      { id: "A-0950", item: "Star atlas", amount: 25, status: "delivered", note: "no issue reported" },
    ]),
    new Customer("alan@example.com", "Alan Turing", "standard", [
      { id: "B-2002", item: "Chess clock", amount: 35, status: "in transit", note: "delayed at the depot" },
    ]),
  ].map((customer) => [customer.email, customer]),
);

/** Every order of every customer, by id. */
export function findOrder(id: string): OrderRecord | undefined {
  for (const customer of CUSTOMERS.values()) {
    const order = customer.orders.find((candidate) => candidate.id === id);
    if (order) return order;
  }
  return undefined;
}
