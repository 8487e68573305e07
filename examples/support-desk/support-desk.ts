import { achievesGoal, action, agent, type OperationContext } from "../../src/index.js";
import { UserInput } from "../user-input.js";
import { diagnoseIssue, refundWorkflow } from "./desk-tools.js";
import { Resolution } from "./domain.js";

/**
 * Resolves a support ticket in one action. The LLM has two agentic tools,
 * each running its own nested loop: `diagnose_issue`, a PlaybookTool whose
 * tools unlock step by step (with the retrieved Customer's own tools chained
 * in), and `refund_workflow`, a StateMachineTool that verifies, refunds and
 * notifies in that order.
 */
@agent({
  name: "SupportDesk",
  description: "Resolves customer support tickets: diagnosis, then a refund if due",
})
export class SupportDesk {
  @achievesGoal({ description: "The ticket has been resolved" })
  @action({ input: UserInput, output: Resolution, description: "Diagnose the complaint and act on it" })
  async resolveTicket(ticket: UserInput, context: OperationContext): Promise<Resolution> {
    return context
      .ai()
      .withTools(diagnoseIssue(), refundWorkflow())
      .creating(Resolution)
      .fromPrompt(
        [
          "Resolve this support ticket. First use diagnose_issue with the customer's complaint.",
          "If the diagnosis says a refund is due, run refund_workflow for the order. Then answer with the Resolution.",
          `Ticket: ${ticket.content}`,
        ].join("\n"),
      );
  }
}
