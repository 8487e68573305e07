import type { ScriptedRequest, ScriptedStep, ScriptedStepInit } from "../../src/testing/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { jsonOrUndefined, lastToolOutput, userText, withRecordedUsage } from "../script-helpers.js";

/** The order named in the request (after `Request:`). */
function orderIn(request: ScriptedRequest): string {
  return /[A-Z]-\d{4}/.exec(userText(request).split("Request:").pop() ?? "")?.[0] ?? "A-1001";
}

/**
 * One reply, chosen from what the model was sent (not from its position, so a
 * worker that resumes a waiting run with a fresh script still answers right):
 * look the order up, then ask to refund what was paid, then answer the
 * customer: refunded, or sorry when the person denied the refund.
 */
function reply(request: ScriptedRequest): ScriptedStep {
  const refunded = lastToolOutput(request, "issue_refund");
  if (refunded !== undefined) {
    return refunded.startsWith("The user denied this call")
      ? ScriptedModel.text(`Sorry, we cannot refund order ${orderIn(request)} right now.`)
      : ScriptedModel.text(`${refunded} The money will be back on your card in 3 days.`);
  }
  const order = jsonOrUndefined(lastToolOutput(request, "lookup_order")) as { cents?: number } | undefined;
  if (order?.cents !== undefined) {
    return ScriptedModel.toolCall("issue_refund", {
      orderId: orderIn(request),
      cents: order.cents,
      reason: "Arrived damaged",
    });
  }
  return ScriptedModel.toolCall("lookup_order", { orderId: orderIn(request) });
}

/** The replies `--scripted` replays: the same request-driven reply, as often as a run can need it. */
export function refundDeskScript(): ScriptedStepInit[] {
  return Array.from({ length: 12 }, () => withRecordedUsage(reply));
}
