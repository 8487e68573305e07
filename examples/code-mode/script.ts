import type { ScriptedRequest, ScriptedStep, ScriptedStepInit } from "../../src/testing/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { jsonOrUndefined, lastToolOutput, withRecordedUsage } from "../script-helpers.js";

/** The program a model writes for the audit. */
export const AUDIT_PROGRAM = `const orders = await Promise.all(
  Array.from({ length: 20 }, (_, i) => tools.get_order({ id: i + 1 })),
);
const due = orders.filter((order) => order.refund > 50);
return { orders: due.length, total: due.reduce((sum, order) => sum + order.refund, 0) };`;

/** Writes the program, then answers from its result (or its error). */
function reply(request: ScriptedRequest): ScriptedStep {
  const output = lastToolOutput(request, "run_code");
  if (output === undefined) return ScriptedModel.toolCall("run_code", { code: AUDIT_PROGRAM });
  const result = jsonOrUndefined(output) as { orders?: number; total?: number } | undefined;
  return ScriptedModel.text(
    result?.total === undefined
      ? `The audit program failed: ${output}`
      : `${result.orders} orders owe more than $50 each: $${result.total} in refunds.`,
  );
}

/** The replies `--scripted` replays. */
export function refundAuditScript(): ScriptedStepInit[] {
  return Array.from({ length: 4 }, () => withRecordedUsage(reply));
}
