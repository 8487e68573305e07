import { z } from "zod";
import { llmTool } from "../../src/index.js";
import { SIGNS } from "./domain.js";

/** Tools the writer's LLM may call while drafting the piece. */
export class AstrologyTools {
  @llmTool({
    name: "lucky_number",
    description: "The lucky number of a person for today, from their name",
    input: z.object({ name: z.string().describe("The person's first name") }),
  })
  luckyNumber({ name }: { name: string }): string {
    let sum = 0;
    for (const char of name.toLowerCase()) sum += char.charCodeAt(0);
    return `${name}'s lucky number today is ${(sum % 9) + 1}.`;
  }

  @llmTool({
    name: "compatible_signs",
    description: "The signs most compatible with a sign",
    input: z.object({ sign: z.enum(SIGNS).describe("A star sign") }),
  })
  compatibleSigns({ sign }: { sign: (typeof SIGNS)[number] }): string {
    const index = SIGNS.indexOf(sign);
    const partners = [4, 8].map((offset) => SIGNS[(index + offset) % SIGNS.length]);
    return `${sign} gets on best with ${partners.join(" and ")}.`;
  }
}
