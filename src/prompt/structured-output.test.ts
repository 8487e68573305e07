import { describe, expect, it } from "vitest";
import { z } from "zod";
import { domainType, TypeToken } from "../tool/type-token.js";
import { correctionMessage, outputInstructions, parseOutput } from "./structured-output.js";

const Person = domainType("Person", z.object({ name: z.string(), age: z.number().int() }));

describe("outputInstructions", () => {
  it("names the type and carries its JSON Schema", () => {
    const text = outputInstructions(Person);
    expect(text).toContain("single JSON value of type Person");
    expect(text).toContain(JSON.stringify(Person.jsonSchema));
  });
});

describe("parseOutput", () => {
  it("reads a valid answer", () => {
    expect(parseOutput('{"name":"Ada","age":36}', Person)).toEqual({
      ok: true,
      value: { name: "Ada", age: 36 },
    });
  });

  it("reads an answer inside a json code fence", () => {
    expect(parseOutput('```json\n{"name":"Ada","age":36}\n```', Person).ok).toBe(true);
  });

  it("reads the first fenced block of an answer that starts with prose", () => {
    const answer = 'Here is the person:\n```json\n{"name":"Ada","age":36}\n```\nAnything else?';
    expect(parseOutput(answer, Person)).toEqual({ ok: true, value: { name: "Ada", age: 36 } });
  });

  it("says when the answer is not JSON", () => {
    const parsed = parseOutput("Ada is 36", Person);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems[0]).toMatch(/^the answer is not valid JSON/);
  });

  it("says when the answer is empty", () => {
    expect(parseOutput("  ", Person)).toEqual({
      ok: false,
      problems: ["the answer is empty; expected a JSON value"],
    });
  });

  it("names each field that breaks the schema", () => {
    const parsed = parseOutput('{"name":1,"age":3.5}', Person);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems.map((problem) => problem.split(":")[0])).toEqual(["name", "age"]);
  });

  it("validates plain zod schemas too", () => {
    expect(parseOutput("[1,2]", TypeToken.of(z.array(z.number())))).toEqual({ ok: true, value: [1, 2] });
  });
});

describe("correctionMessage", () => {
  it("lists the problems and asks for corrected JSON of the type", () => {
    expect(correctionMessage(Person, ["age: expected number"])).toBe(
      "Your previous answer was not a valid Person:\n- age: expected number\nReply again with only the corrected JSON value of type Person, conforming to the JSON Schema given in the system prompt.",
    );
  });
});
