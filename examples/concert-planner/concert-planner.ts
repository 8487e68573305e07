import { achievesGoal, action, agent, type OperationContext, Subagent } from "../../src/index.js";
import { UserInput } from "../user-input.js";
import { Concert, ConcertPlan, WorksToFind } from "./domain.js";
import { PerformanceFinder } from "./performance-finder.js";
import { venueTools } from "./venue-tools.js";

/**
 * Plans a concert in two actions: the LLM turns the request into a
 * ConcertPlan; then, with the venue tools (one UnfoldingTool facade) and the
 * PerformanceFinder agent as a tool (a Subagent), it assembles the Concert.
 */
@agent({ name: "ConcertPlanner", description: "Plans a concert: programme, performers, venue and date" })
export class ConcertPlanner {
  @action({ input: UserInput, output: ConcertPlan, description: "Turn the request into a concert plan" })
  async planConcert(request: UserInput, context: OperationContext): Promise<ConcertPlan> {
    return context
      .ai()
      .creating(ConcertPlan)
      .fromPrompt(
        [
          "Turn this request into a concert plan: a theme, the composers to play, their era,",
          "the city, the expected audience (300 if not said) and how many works to programme (3 if not said).",
          `Request: ${request.content}`,
        ].join("\n"),
      );
  }

  @achievesGoal({ description: "A concert has been assembled" })
  @action({ input: ConcertPlan, output: Concert, description: "Choose venue, date and performances" })
  async assembleConcert(plan: ConcertPlan, context: OperationContext): Promise<Concert> {
    return context
      .ai()
      .withTool(venueTools())
      .withTool(Subagent.ofClass(PerformanceFinder).consuming(WorksToFind))
      .creating(Concert)
      .fromPrompt(
        [
          "Assemble a concert from this plan.",
          "Use venue_tools to find a hall that seats the audience and a free date,",
          "and PerformanceFinder to choose the performances. Then answer with the Concert.",
          `Plan: ${JSON.stringify(plan)}`,
        ].join("\n"),
      );
  }
}
