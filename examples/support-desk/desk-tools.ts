import { z } from "zod";
import { PlaybookTool, StateMachineTool, Tool, ToolResult } from "../../src/index.js";
import { CUSTOMERS, Customer, findOrder } from "./customer.js";

const EmailInput = z.object({ email: z.string().describe("The customer's email address") });
const OrderInput = z.object({ orderId: z.string().describe("The order id, e.g. A-1001") });
const FixInput = z.object({ orderId: z.string(), remedy: z.string().describe("The remedy to propose") });
const RefundInput = z.object({ orderId: z.string(), amount: z.number().describe("Amount in dollars") });
const NotifyInput = z.object({ message: z.string().describe("What to tell the customer") });

const lookupCustomer = Tool.fromFunction(
  "lookup_customer",
  "Find a customer by email address",
  EmailInput,
  String,
  ({ email }) => {
    const customer = CUSTOMERS.get(email.toLowerCase());
    return customer
      ? ToolResult.withArtifact(`Found ${customer.name} (${customer.email})`, customer)
      : ToolResult.error(`No customer with email ${email}`);
  },
);

const checkOrder = Tool.fromFunction(
  "check_order",
  "Check an order's delivery status",
  OrderInput,
  String,
  ({ orderId }) => {
    const order = findOrder(orderId);
    return order ? `${order.id}: ${order.status}; ${order.note}` : ToolResult.error(`No order ${orderId}`);
  },
);

const proposeFix = Tool.fromFunction(
  "propose_fix",
  "Record the remedy proposed for an order",
  FixInput,
  String,
  ({ orderId, remedy }) => `Proposed for ${orderId}: ${remedy}`,
);

/**
 * Diagnoses a complaint step by step (a PlaybookTool): find the customer
 * first; the order check unlocks after that, the proposal after both. The
 * customer's own tools (`recent_orders`, `account_tier`) are chained from the
 * Customer that `lookup_customer` returns.
 */
export function diagnoseIssue(): PlaybookTool {
  return PlaybookTool.create("diagnose_issue", "Diagnose a customer's complaint and propose a remedy")
    .withParameter(Tool.Parameter.string("complaint", "The customer's complaint, as written"))
    .withTools(lookupCustomer)
    .withTool(checkOrder)
    .unlockedBy(lookupCustomer)
    .withTool(proposeFix)
    .unlockedByAll(lookupCustomer, checkOrder)
    .withToolChainingFrom(Customer)
    .withMaxIterations(10);
}

/** The refund workflow's states. */
export enum RefundState {
  REQUESTED = "REQUESTED",
  APPROVED = "APPROVED",
  REFUNDED = "REFUNDED",
}

const refunds = new Map<string, number>();

const verifyPurchase = Tool.fromFunction(
  "verify_purchase",
  "Verify that the order was paid and is eligible for a refund",
  OrderInput,
  String,
  ({ orderId }) => {
    const order = findOrder(orderId);
    if (!order) return ToolResult.error(`No order ${orderId}`);
    return `${orderId} verified: paid $${order.amount.toFixed(2)}`;
  },
);

const issueRefund = Tool.fromFunction(
  "issue_refund",
  "Refund money for an order",
  RefundInput,
  String,
  ({ orderId, amount }) => {
    refunds.set(orderId, amount);
    return `Refunded $${amount.toFixed(2)} for ${orderId}`;
  },
);

const notifyCustomer = Tool.fromFunction(
  "notify_customer",
  "Email the customer about their refund",
  NotifyInput,
  String,
  ({ message }) => `Email sent: ${message}`,
);

const refundStatus = Tool.fromFunction(
  "refund_status",
  "Show refunds issued so far",
  z.object({}),
  String,
  () =>
    refunds.size === 0
      ? "No refunds issued"
      : [...refunds].map(([orderId, amount]) => `${orderId}: $${amount.toFixed(2)}`).join("; "),
);

/** Runs a refund through its states (a StateMachineTool): verify, refund, then notify. */
export function refundWorkflow(): StateMachineTool<RefundState> {
  return StateMachineTool.create("refund_workflow", "Refund an order: verify, refund, notify", RefundState)
    .withParameter(Tool.Parameter.string("orderId", "The order to refund"))
    .withParameter(Tool.Parameter.string("reason", "Why the refund is due"))
    .withInitialState(RefundState.REQUESTED)
    .inState(RefundState.REQUESTED)
    .withTool(verifyPurchase)
    .transitionsTo(RefundState.APPROVED)
    .inState(RefundState.APPROVED)
    .withTool(issueRefund)
    .transitionsTo(RefundState.REFUNDED)
    .inState(RefundState.REFUNDED)
    .withTool(notifyCustomer)
    .build()
    .withGlobalTool(refundStatus)
    .withMaxIterations(10);
}
