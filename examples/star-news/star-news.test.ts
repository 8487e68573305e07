import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { UserInput } from "../user-input.js";
import { example, Horoscope, StarNewsWriter, StarPerson, starNewsScript, type Writeup } from "./index.js";

async function write(request: string) {
  const model = new ScriptedModel(starNewsScript());
  const platform = AgentPlatform.create({ models: { default: model } });
  const process = await platform.runAgent(
    platform.deploy(StarNewsWriter),
    UserInput.create({ content: request }),
  );
  return { model, process };
}

describe("StarNewsWriter (on its recorded script)", () => {
  it("plans three actions, running the horoscope lookup without the LLM", async () => {
    const { model, process } = await write("Lynda, a Scorpio");
    expect(process.status).toBe("completed");
    expect(process.history.map((invocation) => invocation.actionName)).toEqual([
      "extractStarPerson",
      "retrieveHoroscope",
      "writeup",
    ]);
    expect(model.requests).toHaveLength(3);
    expect(model.remaining).toBe(0);
  });

  it("offers the @llmTool tools only to the writing step", async () => {
    const { model } = await write("Lynda, a Scorpio");
    expect(model.toolNamesPerRequest).toEqual([
      [],
      ["lucky_number", "compatible_signs"],
      ["lucky_number", "compatible_signs"],
    ]);
  });

  it("writes the piece from the person, the horoscope and the tool results", async () => {
    const { process } = await write("Marco, a Leo");
    expect(process.blackboard.last(StarPerson)).toEqual({ name: "Marco", sign: "Leo" });
    expect(process.blackboard.last(Horoscope)?.summary).toBe("Someone notices the work you did quietly.");
    const writeup = process.result as Writeup;
    expect(writeup.text).toContain("Marco's lucky number today is");
    expect(writeup.text).toContain("Leo gets on best with Sagittarius and Aries.");
  });

  it("is described for the CLI", () => {
    expect(example.name).toBe("star-news");
    expect(example.agents).toEqual([StarNewsWriter]);
  });
});
