import type { ScriptedRequest, ScriptedStepInit } from "../../src/testing/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { jsonOrUndefined, lastToolOutput, userText, withRecordedUsage } from "../script-helpers.js";
import type { Resolution } from "./domain.js";

const DEFAULT_EMAIL = "ada@example.com";

/** The ticket as the outer action wrote it (after `Ticket:`). */
function ticketIn(request: ScriptedRequest): string {
  return userText(request).split("Ticket:").pop()?.trim() ?? "";
}

/** The nested loop's user message is the JSON the outer LLM sent the agentic tool. */
function argumentsIn(request: ScriptedRequest): Record<string, string> {
  const parsed = jsonOrUndefined(userText(request));
  return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, string>) : {};
}

const emailIn = (text: string) => /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(text)?.[0] ?? DEFAULT_EMAIL;
const orderIn = (text: string | undefined) => /[A-Z]-\d{4}/.exec(text ?? "")?.[0];
const amountIn = (text: string | undefined) => Number(/\$(\d+(?:\.\d+)?)/.exec(text ?? "")?.[1] ?? "0");

/**
 * The replies of the recorded run. The outer LLM calls `diagnose_issue`;
 * inside it, the nested LLM first tries the still-locked `check_order`, then
 * finds the customer, uses the chained `recent_orders`, checks the order and
 * proposes a remedy. The outer LLM then calls `refund_workflow`, whose nested
 * LLM tries to refund before verifying (wrong state), verifies, refunds and
 * notifies. Finally the outer LLM answers with the Resolution. Each step reads
 * what the model was sent, so the run follows the ticket, and reports the
 * tokens a real model would.
 */
export function supportDeskScript(): ScriptedStepInit[] {
  const steps: ScriptedStepInit[] = [
    (request) => ScriptedModel.toolCall("diagnose_issue", { complaint: ticketIn(request) }),
    // diagnose_issue (PlaybookTool): check_order is locked until lookup_customer ran.
    (request) =>
      ScriptedModel.toolCall("check_order", { orderId: orderIn(argumentsIn(request).complaint) ?? "A-1001" }),
    (request) =>
      ScriptedModel.toolCall("lookup_customer", { email: emailIn(argumentsIn(request).complaint ?? "") }),
    ScriptedModel.toolCall("recent_orders", {}),
    (request) => {
      const named = orderIn(argumentsIn(request).complaint);
      return ScriptedModel.toolCall("check_order", {
        orderId: named ?? orderIn(lastToolOutput(request, "recent_orders")) ?? "A-1001",
      });
    },
    (request) => {
      const status = lastToolOutput(request, "check_order") ?? "";
      const orderId = orderIn(status) ?? "A-1001";
      const remedy = /dent|damag/.test(status) ? "refund the damaged item" : "wait for delivery";
      return ScriptedModel.toolCall("propose_fix", { orderId, remedy });
    },
    (request) => {
      const status = lastToolOutput(request, "check_order") ?? "";
      const orderId = orderIn(status) ?? "A-1001";
      const orders = lastToolOutput(request, "recent_orders") ?? "";
      const amount = /\$(\d+\.\d{2})/.exec(orders.slice(orders.indexOf(orderId)))?.[1] ?? "0.00";
      const due = /dent|damag/.test(status);
      return ScriptedModel.text(
        due
          ? `Order ${orderId} arrived damaged (${status.split("; ").pop()}). A refund of $${amount} is due.`
          : `Order ${orderId} is ${status.split(": ").pop()}. No refund is due.`,
      );
    },
    // Back in the outer loop: refund the order the diagnosis names (or answer at once when none is due).
    (request) => {
      const diagnosis = lastToolOutput(request, "diagnose_issue");
      if (diagnosis?.includes("No refund")) return resolutionStep(request);
      return ScriptedModel.toolCall("refund_workflow", {
        orderId: orderIn(diagnosis) ?? "A-1001",
        reason: diagnosis ?? "damaged on delivery",
      });
    },
    // refund_workflow (StateMachineTool): refunding before verifying is refused.
    (request) => {
      const args = argumentsIn(request);
      return ScriptedModel.toolCall("issue_refund", { orderId: args.orderId, amount: amountIn(args.reason) });
    },
    (request) => ScriptedModel.toolCall("verify_purchase", { orderId: argumentsIn(request).orderId }),
    (request) => {
      const args = argumentsIn(request);
      return ScriptedModel.toolCall("issue_refund", {
        orderId: args.orderId,
        amount: amountIn(lastToolOutput(request, "verify_purchase")),
      });
    },
    (request) => {
      const refund = lastToolOutput(request, "issue_refund") ?? "";
      return ScriptedModel.toolCall("notify_customer", {
        message: `${refund.split("\n")[0]}. Sorry for the trouble!`,
      });
    },
    (request) =>
      ScriptedModel.text(
        `Done: ${(lastToolOutput(request, "issue_refund") ?? "").split("\n")[0]}, customer notified.`,
      ),
    // The outer LLM answers with the Resolution.
    resolutionStep,
  ];
  return steps.map(withRecordedUsage);
}

/** The outer LLM's final answer: the Resolution, from the ticket and the agentic tools' results. */
function resolutionStep(request: ScriptedRequest) {
  const ticket = ticketIn(request);
  const diagnosis = lastToolOutput(request, "diagnose_issue") ?? "";
  const refund = lastToolOutput(request, "refund_workflow");
  const resolution: Resolution = {
    customer: emailIn(ticket),
    orderId: orderIn(diagnosis) ?? "A-1001",
    diagnosis,
    action: refund ?? "No action needed",
    refunded: refund?.includes("Refunded") ?? false,
  };
  return ScriptedModel.text(JSON.stringify(resolution));
}
