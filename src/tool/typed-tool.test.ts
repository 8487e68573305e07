import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ReplanRequested } from "../errors/replan-requested.js";
import { Tool } from "./tool.js";
import { ToolCallContext } from "./tool-call-context.js";
import { ToolMetadata } from "./tool-metadata.js";
import { ToolResult } from "./tool-result.js";
import { domainType } from "./type-token.js";
import { TypedTool } from "./typed-tool.js";

const AddRequest = domainType(
  "AddRequest",
  z.object({ a: z.number().describe("First number"), b: z.number().describe("Second number") }),
);
const AddResult = domainType("AddResult", z.object({ sum: z.number() }));
const GreetRequest = z.object({ name: z.string(), greeting: z.string().default("Hello") });

function addTool() {
  return new TypedTool({
    name: "add",
    description: "Adds two numbers together",
    inputType: AddRequest,
    outputType: AddResult,
    fn: (input) => ({ sum: input.a + input.b }),
  });
}

describe("TypedTool", () => {
  it("derives the input schema from the input type", () => {
    expect(addTool().definition.inputSchema.jsonSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number", description: "First number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
  });

  it("serializes the output as compact JSON", async () => {
    expect(await addTool().call('{"a": 5, "b": 3}')).toEqual(ToolResult.text('{"sum":8}'));
  });

  it("applies defaults of optional fields", async () => {
    const greet = new TypedTool({
      name: "greet",
      description: "Greets someone",
      inputType: GreetRequest,
      outputType: String,
      fn: (input) => `${input.greeting} ${input.name}!`,
    });
    expect((await greet.call('{"name":"Ada"}')).content).toBe("Hello Ada!");
  });

  it("returns a string output unquoted", async () => {
    const greet = Tool.fromFunction(
      "greet",
      "Greets",
      GreetRequest,
      z.string(),
      (input) => `Hi ${input.name}`,
    );
    expect(await greet.call('{"name":"Bob"}')).toEqual(ToolResult.text("Hi Bob"));
  });

  it("uses a returned ToolResult as is", async () => {
    const artifact = { id: 1 };
    const tool = Tool.fromFunction("find", "Finds", GreetRequest, AddResult, () =>
      ToolResult.withArtifact("found", artifact),
    );
    const result = await tool.call('{"name":"x"}');
    expect(result.kind === "artifact" && result.artifact).toBe(artifact);
  });

  it("answers invalid JSON with an error naming the tool", async () => {
    const result = await addTool().call("not valid json");
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(
      /^Invalid JSON arguments for tool 'add': .+ Send the arguments as one JSON object/,
    );
  });

  it("answers a schema violation with the field and what was expected", async () => {
    const result = await addTool().call('{"a": 5, "b": "three"}');
    expect(result).toMatchObject({
      kind: "error",
      content: "Invalid arguments for tool 'add': b: Invalid input: expected number, received string",
    });
  });

  it("reads blank input as {} and runs when that fits", async () => {
    const tool = Tool.fromFunction("now", "Current time", z.object({}), String, () => "noon");
    expect((await tool.call("")).content).toBe("noon");
  });

  it("answers blank input that does not fit with the type's name and what is missing", async () => {
    const result = await addTool().call("   ");
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^Empty input provided but AddRequest requires arguments: a: /);
  });

  it("names the tool, not a made-up type, when an anonymous zod input does not fit blank input", async () => {
    const tool = Tool.fromFunction("greet", "Greets", GreetRequest, String, ({ name }) => `Hi ${name}`);
    expect((await tool.call("")).content).toMatch(
      /^Empty input provided but tool 'greet' requires arguments: name: Invalid input/,
    );
  });

  it("turns a thrown error into an error result with its message and cause", async () => {
    const failure = new Error("Oops");
    const tool = Tool.fromFunction("boom", "Fails", z.object({}), String, () => {
      throw failure;
    });
    expect(await tool.call("{}")).toEqual(ToolResult.error("Oops", failure));
  });

  it("says 'Tool invocation failed' for an error without a message", async () => {
    const tool = Tool.fromFunction("boom", "Fails", z.object({}), String, async () => {
      throw new Error();
    });
    expect((await tool.call("{}")).content).toBe("Tool invocation failed");
  });

  it("lets control-flow signals propagate", async () => {
    const tool = Tool.fromFunction("route", "Routes", z.object({}), String, () => {
      throw new ReplanRequested("Routing decision made");
    });
    await expect(tool.call("{}")).rejects.toBeInstanceOf(ReplanRequested);
  });

  it("passes the context and awaits async functions", async () => {
    const tool = Tool.fromFunction("tenant", "Tenant", z.object({}), String, async (_input, context) =>
      String(context.get("tenantId")),
    );
    expect((await tool.call("{}", ToolCallContext.of({ tenantId: "acme" }))).content).toBe("acme");
  });

  it("keeps metadata given to fromFunction", () => {
    const tool = Tool.fromFunction(
      "lookup",
      "Looks up",
      AddRequest,
      AddResult,
      ToolMetadata.create({ returnDirect: true }),
      (input) => ({ sum: input.a }),
    );
    expect(tool.metadata.returnDirect).toBe(true);
  });

  it("rejects metadata given to fromFunction without a function, naming the tool", () => {
    const noFunction = [ToolMetadata.DEFAULT] as unknown as [() => string];
    expect(() => Tool.fromFunction("lookup", "Looks up", AddRequest, String, ...noFunction)).toThrow(
      "Tool 'lookup' was created without a function.",
    );
  });

  it("rejects an input type that is not an object", () => {
    expect(() => Tool.fromFunction("echo", "Echo", String, String, (input) => input)).toThrow(
      ConfigurationError,
    );
  });

  it("rejects an invalid tool name, naming it", () => {
    expect(() => Tool.fromFunction("bad name", "Bad", AddRequest, AddResult, () => ({ sum: 0 }))).toThrow(
      /Invalid tool name 'bad name'/,
    );
  });

  it("answers any input string with a result, never a throw", async () => {
    const tool = addTool();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json()), async (input) => {
        const result = await tool.call(input);
        expect(["text", "error"]).toContain(result.kind);
      }),
    );
  });

  it("accepts a class with a static zod schema as the input type", async () => {
    class Point {
      static schema = z.object({ x: z.number(), y: z.number() });
      declare x: number;
      declare y: number;
      norm(): number {
        return Math.hypot(this.x, this.y);
      }
    }
    const tool = Tool.fromFunction("norm", "Length", Point, Number, (point) => point.norm());
    expect((await tool.call('{"x":3,"y":4}')).content).toBe("5");
  });
});

describe("Tool.fromFunction({ name, description, input, execute })", () => {
  it("makes the same tool as the positional form, with the output type optional", async () => {
    const weather = Tool.fromFunction({
      name: "weather",
      description: "Today's weather in a city",
      input: z.object({ city: z.string().describe("The city") }),
      execute: ({ city }) => ({ city, summary: "sunny" }),
    });
    expect(weather.definition).toMatchObject({ name: "weather", description: "Today's weather in a city" });
    expect(weather.definition.inputSchema.jsonSchema).toMatchObject({
      properties: { city: { type: "string", description: "The city" } },
      required: ["city"],
    });
    expect(await weather.call('{"city":"Lisbon"}')).toEqual(
      ToolResult.text('{"city":"Lisbon","summary":"sunny"}'),
    );
    // The LLM's bad arguments are an error result naming the field, as with the positional form.
    expect((await weather.call('{"town":"Lisbon"}')).kind).toBe("error");

    const positional = Tool.fromFunction(
      "add",
      "Adds two numbers together",
      AddRequest,
      AddResult,
      (input) => ({
        sum: input.a + input.b,
      }),
    );
    const options = Tool.fromFunction({
      name: "add",
      description: "Adds two numbers together",
      input: AddRequest,
      output: AddResult,
      metadata: ToolMetadata.create({ returnDirect: true }),
      execute: (input) => ({ sum: input.a + input.b }),
    });
    expect(JSON.stringify(options.definition)).toBe(JSON.stringify(positional.definition));
    expect(options.metadata.returnDirect).toBe(true);
    expect(await options.call('{"a":2,"b":3}')).toEqual(await positional.call('{"a":2,"b":3}'));
  });

  it("names every missing field and the expected shape", () => {
    expect(() => Tool.fromFunction({ name: "x" } as never)).toThrow(
      new ConfigurationError(
        "Tool 'x' needs 'description', 'input', 'execute': Tool.fromFunction({ name, description, input, execute }).",
      ),
    );
    expect(() =>
      Tool.fromFunction({
        name: "x",
        description: "d",
        input: AddRequest,
        execute: "run" as unknown as () => string,
      }),
    ).toThrow("Tool 'x': 'execute' must be a function, got string.");
  });
});
