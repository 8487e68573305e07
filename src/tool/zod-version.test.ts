import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as zod3 from "zod/v3";
import { ConfigurationError } from "../errors/configuration-error.js";
import { llmTool } from "./llm-tool.js";
import { Tool } from "./tool.js";
import { domainType } from "./type-token.js";
import { requireZod4 } from "./zod-version.js";

// zod 4 ships the zod 3 API as "zod/v3": real zod 3 schemas and a real zod 3 module.
const z3 = zod3.z;

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

describe("requireZod4", () => {
  it("accepts the zod 4 module", () => {
    expect(() => requireZod4(z)).not.toThrow();
  });

  it("names the version it needs when the zod module is zod 3", () => {
    const error = thrown(() => requireZod4(zod3));
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/^embabel-ts needs zod 4 \(found 3\.x\)\. Install zod 4 .*npm i zod@\^4/);
  });
});

describe("zod 3 schemas given to the public API", () => {
  it("Tool.fromFunction says zod 4 is needed instead of failing on a missing 'def'", () => {
    const error = thrown(() =>
      Tool.fromFunction("add", "Adds", z3.object({ a: z3.number() }) as never, String, () => "1"),
    );
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(error.message).toContain("embabel-ts needs zod 4 (found 3.x)");
  });

  it("an @llmTool input names the method", () => {
    class Calculator {
      @llmTool({ description: "Adds", input: z3.object({ a: z3.number() }) as never })
      add() {
        return 1;
      }
    }
    const error = thrown(() => Tool.fromInstance(new Calculator()));
    expect(error.message).toContain(
      "embabel-ts needs zod 4 (found 3.x): the schema of tool method Calculator.add",
    );
  });

  it("a domain type reports it when its JSON Schema is first needed", () => {
    const Person = domainType("Person", z3.object({ name: z3.string() }) as never);
    expect(() => Person.jsonSchema).toThrow(
      /embabel-ts needs zod 4 \(found 3\.x\): the schema of domain type Person/,
    );
  });

  it("zod 4 schemas still work", () => {
    const add = Tool.fromFunction("add", "Adds", z.object({ a: z.number() }), String, ({ a }) => `${a}`);
    expect(add.definition.inputSchema.jsonSchema).toMatchObject({ properties: { a: { type: "number" } } });
  });
});
