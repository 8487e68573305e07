import { z } from "zod";
import { domainType } from "../../src/index.js";

/** The audit's answer. */
export const AuditReport = domainType("AuditReport", z.object({ answer: z.string().describe("The answer") }));
/** An {@link AuditReport} value. */
export type AuditReport = z.output<typeof AuditReport.schema>;
