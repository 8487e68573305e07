import { achievesGoal, action, agent, type OperationContext } from "../../src/index.js";
import { UserInput } from "../user-input.js";
import { AstrologyTools } from "./astrology-tools.js";
import { Horoscope, StarPerson, Writeup } from "./domain.js";
import { horoscopeFor } from "./horoscope-service.js";

/**
 * Writes a short horoscope piece in three actions the planner chains by
 * type: extract the person (LLM), fetch the horoscope (plain code), write
 * the piece (LLM with `@llmTool` tools).
 */
@agent({ name: "StarNewsWriter", description: "Writes a short, upbeat horoscope piece for a person" })
export class StarNewsWriter {
  @action({ input: UserInput, output: StarPerson, description: "Find the person and their sign" })
  async extractStarPerson(request: UserInput, context: OperationContext): Promise<StarPerson> {
    return context
      .ai()
      .creating(StarPerson)
      .fromPrompt(
        ["Who is this request about, and what is their star sign?", `Request: ${request.content}`].join("\n"),
      );
  }

  @action({ input: StarPerson, output: Horoscope, description: "Look up today's horoscope" })
  retrieveHoroscope(person: StarPerson): Horoscope {
    return horoscopeFor(person.sign, new Date().toISOString().slice(0, 10));
  }

  @achievesGoal({ description: "A horoscope piece has been written" })
  @action({ input: [StarPerson, Horoscope], output: Writeup, description: "Write the piece" })
  async writeup(person: StarPerson, horoscope: Horoscope, context: OperationContext): Promise<Writeup> {
    return context
      .ai()
      .withToolObject(new AstrologyTools())
      .creating(Writeup)
      .fromPrompt(
        [
          "Write a short, upbeat horoscope piece for this person. Use the tools for their lucky number",
          "and compatible signs, and weave in today's horoscope.",
          `Person: ${JSON.stringify(person)}`,
          `Horoscope: ${JSON.stringify(horoscope)}`,
        ].join("\n"),
      );
  }
}
