import type { ExampleDefinition } from "../../src/cli/example-definition.js";
import { catalogEntry } from "../catalog.js";
import { RECORDED_WITH } from "../script-helpers.js";
import { UserInput } from "../user-input.js";
import type { AuditReport } from "./domain.js";
import { RefundAudit } from "./refund-audit.js";
import { refundAuditScript } from "./script.js";

export { AuditReport } from "./domain.js";
export { getOrder, orderOf } from "./order-tools.js";
export { RefundAudit } from "./refund-audit.js";
export { AUDIT_PROGRAM, refundAuditScript } from "./script.js";

/** `embabel-ts run code-mode "<request>"`: one program over 20 orders instead of 20 tool calls. */
export const example: ExampleDefinition = {
  ...catalogEntry("code-mode"),
  agents: [RefundAudit],
  input: (text) => UserInput.create({ content: text }),
  recordedWith: RECORDED_WITH,
  script: refundAuditScript,
  formatResult: (result) => (result as AuditReport).answer ?? JSON.stringify(result, null, 2),
};
