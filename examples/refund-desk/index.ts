import type { ExampleDefinition } from "../../src/cli/example-definition.js";
import { catalogEntry } from "../catalog.js";
import { RECORDED_WITH } from "../script-helpers.js";
import { UserInput } from "../user-input.js";
import type { RefundOutcome } from "./domain.js";
import { RefundDesk } from "./refund-desk.js";
import { refundDeskScript } from "./script.js";

export { Refund, RefundOutcome } from "./domain.js";
export { RefundDesk } from "./refund-desk.js";
export { ORDERS, RefundTools } from "./refund-tools.js";
export { refundDeskScript } from "./script.js";

/** `embabel-ts run refund-desk "<request>"`: waits for a person to approve the refund. */
export const example: ExampleDefinition = {
  ...catalogEntry("refund-desk"),
  agents: [RefundDesk],
  input: (text) => UserInput.create({ content: text }),
  recordedWith: RECORDED_WITH,
  script: refundDeskScript,
  formatResult(result) {
    const outcome = result as RefundOutcome;
    if (!outcome?.orderId) return JSON.stringify(result, null, 2);
    const money =
      outcome.refundedCents > 0 ? `refunded $${(outcome.refundedCents / 100).toFixed(2)}` : "no refund";
    return `${outcome.orderId} · ${money}\n${outcome.reply}`;
  },
};
