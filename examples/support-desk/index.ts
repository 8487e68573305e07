import type { ExampleDefinition } from "../../src/cli/example-definition.js";
import { catalogEntry } from "../catalog.js";
import { RECORDED_WITH } from "../script-helpers.js";
import { UserInput } from "../user-input.js";
import type { Resolution } from "./domain.js";
import { supportDeskScript } from "./script.js";
import { SupportDesk } from "./support-desk.js";

export { CUSTOMERS, Customer } from "./customer.js";
export { diagnoseIssue, RefundState, refundWorkflow } from "./desk-tools.js";
export { Resolution } from "./domain.js";
export { supportDeskScript } from "./script.js";
export { SupportDesk } from "./support-desk.js";

/** `embabel-ts run support-desk "<ticket>"`. */
export const example: ExampleDefinition = {
  ...catalogEntry("support-desk"),
  agents: [SupportDesk],
  input: (text) => UserInput.create({ content: text }),
  recordedWith: RECORDED_WITH,
  script: supportDeskScript,
  formatResult(result) {
    const resolution = result as Resolution;
    if (!resolution?.orderId) return JSON.stringify(result, null, 2);
    return [
      `${resolution.customer} · ${resolution.orderId} · ${resolution.refunded ? "refunded" : "no refund"}`,
      `Diagnosis: ${resolution.diagnosis}`,
      `Action: ${resolution.action}`,
    ].join("\n");
  },
};
