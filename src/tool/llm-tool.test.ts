import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ReplanRequested } from "../errors/replan-requested.js";
import { ToolControlFlowSignal } from "../errors/tool-control-flow-signal.js";
import { llmTool } from "./llm-tool.js";
import { Tool } from "./tool.js";
import { ToolCallContext } from "./tool-call-context.js";
import { ToolResult } from "./tool-result.js";

const AddInput = z.object({
  a: z.number().describe("First number"),
  b: z.number().describe("Second number"),
});

class StopEverything extends ToolControlFlowSignal {}

class Person {
  constructor(
    readonly name: string,
    readonly age: number,
  ) {}
}

class MathTools {
  calls = 0;

  @llmTool({ description: "Adds two numbers together", input: AddInput })
  add({ a, b }: z.output<typeof AddInput>): number {
    this.calls++;
    return a + b;
  }

  @llmTool({ description: "Multiplies two numbers", name: "times", returnDirect: true, input: AddInput })
  async multiply({ a, b }: z.output<typeof AddInput>): Promise<number> {
    return a * b;
  }

  notATool(): string {
    return "ignored";
  }
}

class Kitchen {
  @llmTool({ description: "Says hello" })
  greet(): string {
    return "Hello!";
  }

  @llmTool({ description: "Does nothing" })
  nothing(): void {}

  @llmTool({ description: "Returns a result" })
  result(): ToolResult {
    return ToolResult.error("Something went wrong");
  }

  @llmTool({ description: "Finds a person", input: z.object({ name: z.string() }) })
  person({ name }: { name: string }): Person {
    return new Person(name, 42);
  }

  @llmTool({ description: "Fails" })
  fail(): never {
    throw new Error("Intentional failure");
  }

  @llmTool({ description: "Fails without a message" })
  failQuietly(): never {
    throw new Error("");
  }

  @llmTool({ description: "Asks for a replan" })
  replan(): never {
    throw new ReplanRequested("Routing decision made");
  }

  @llmTool({ description: "Stops the agent" })
  stop(): never {
    throw new StopEverything("stop");
  }

  @llmTool({ description: "Reads the tenant", metadata: { group: "context" } })
  tenant(_input: unknown, context: ToolCallContext): string {
    return `tenant=${context.get("tenantId") ?? "none"}`;
  }
}

function toolNamed(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.definition.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

describe("llmTool", () => {
  it("makes one tool per decorated method, in declaration order, ignoring other methods", () => {
    const tools = Tool.fromInstance(new MathTools());
    expect(tools.map((tool) => tool.definition.name)).toEqual(["add", "times"]);
  });

  it("uses the method name, the description and the zod input as the definition", () => {
    const add = toolNamed(Tool.fromInstance(new MathTools()), "add");
    expect(add.definition.description).toBe("Adds two numbers together");
    expect(add.definition.inputSchema.jsonSchema).toMatchObject({
      type: "object",
      properties: {
        a: { type: "number", description: "First number" },
        b: { type: "number", description: "Second number" },
      },
      required: ["a", "b"],
    });
    expect(add.metadata.returnDirect).toBe(false);
    expect(add.definition.metadata).toEqual({});
  });

  it("honours name and returnDirect", () => {
    const times = toolNamed(Tool.fromInstance(new MathTools()), "times");
    expect(times.metadata.returnDirect).toBe(true);
  });

  it("gives a method without input an empty schema", () => {
    const greet = toolNamed(Tool.fromInstance(new Kitchen()), "greet");
    expect(greet.definition.inputSchema.toJsonSchema()).toBe('{"type":"object","properties":{}}');
  });

  it("puts its metadata option into the definition metadata", () => {
    const tenant = toolNamed(Tool.fromInstance(new Kitchen()), "tenant");
    expect(tenant.definition.metadata).toEqual({ group: "context" });
  });

  it("calls the method on its instance and returns a number as JSON with the artifact", async () => {
    const math = new MathTools();
    const result = await toolNamed(Tool.fromInstance(math), "add").call('{"a": 5, "b": 3}');
    expect(result).toEqual(ToolResult.withArtifact("8", 8));
    expect(math.calls).toBe(1);
  });

  it("awaits async methods", async () => {
    const result = await toolNamed(Tool.fromInstance(new MathTools()), "times").call('{"a": 6, "b": 7}');
    expect(result).toMatchObject({ kind: "artifact", content: "42", artifact: 42 });
  });

  it("returns an object as its JSON with the object as the artifact", async () => {
    const result = await toolNamed(Tool.fromInstance(new Kitchen()), "person").call('{"name":"Ada"}');
    expect(result.kind).toBe("artifact");
    expect(result.content).toBe('{"name":"Ada","age":42}');
    expect(result.kind === "artifact" && result.artifact).toBeInstanceOf(Person);
  });

  it("returns a string as text, unquoted", async () => {
    const result = await toolNamed(Tool.fromInstance(new Kitchen()), "greet").call("");
    expect(result).toEqual(ToolResult.text("Hello!"));
  });

  it("returns nothing as empty text", async () => {
    const result = await toolNamed(Tool.fromInstance(new Kitchen()), "nothing").call("{}");
    expect(result).toEqual(ToolResult.text(""));
  });

  it("returns a ToolResult as is", async () => {
    const result = await toolNamed(Tool.fromInstance(new Kitchen()), "result").call("{}");
    expect(result).toEqual(ToolResult.error("Something went wrong"));
  });

  it("turns a thrown error into an error result carrying the cause", async () => {
    const result = await toolNamed(Tool.fromInstance(new Kitchen()), "fail").call("{}");
    expect(result.kind).toBe("error");
    expect(result.content).toBe("Intentional failure");
    expect(result.kind === "error" && result.cause).toBeInstanceOf(Error);
  });

  it("says 'Tool invocation failed' when the error has no message", async () => {
    const result = await toolNamed(Tool.fromInstance(new Kitchen()), "failQuietly").call("{}");
    expect(result).toMatchObject({ kind: "error", content: "Tool invocation failed" });
  });

  it("lets ReplanRequested propagate", async () => {
    const replan = toolNamed(Tool.fromInstance(new Kitchen()), "replan");
    await expect(replan.call("{}")).rejects.toSatisfy(
      (error) => ReplanRequested.isInstance(error) && error.reason === "Routing decision made",
    );
  });

  it("lets every other control-flow signal propagate too", async () => {
    const stop = toolNamed(Tool.fromInstance(new Kitchen()), "stop");
    await expect(stop.call("{}")).rejects.toBeInstanceOf(StopEverything);
  });

  it("answers invalid JSON with an error naming the tool", async () => {
    const result = await toolNamed(Tool.fromInstance(new MathTools()), "add").call("not valid json");
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^Invalid JSON arguments for tool 'add': /);
  });

  it("answers a schema violation with the wrong field and what was expected", async () => {
    const math = new MathTools();
    const result = await toolNamed(Tool.fromInstance(math), "add").call('{"a":"5","b":3}');
    expect(result.kind).toBe("error");
    expect(result.content).toBe(
      "Invalid arguments for tool 'add': a: Invalid input: expected number, received string",
    );
    expect(math.calls).toBe(0);
  });

  it("answers JSON that is not an object (null, an array, a number) without calling the method", async () => {
    const math = new MathTools();
    const add = toolNamed(Tool.fromInstance(math), "add");
    for (const [input, received] of [
      ["null", "null"],
      ["[1,2]", "array"],
      ["8", "number"],
    ]) {
      const result = await add.call(input!);
      expect(result.kind).toBe("error");
      expect(result.content).toBe(
        `Invalid arguments for tool 'add': (root): Invalid input: expected object, received ${received}`,
      );
    }
    expect(math.calls).toBe(0);
  });

  it("answers blank input for a method with required input with what is missing", async () => {
    const result = await toolNamed(Tool.fromInstance(new MathTools()), "add").call("  ");
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^Empty input provided but tool 'add' requires arguments: a: /);
  });

  it("passes the call's context to the method, and EMPTY when none is given", async () => {
    const tenant = toolNamed(Tool.fromInstance(new Kitchen()), "tenant");
    expect((await tenant.call("{}", ToolCallContext.of({ tenantId: "acme" }))).content).toBe("tenant=acme");
    expect((await tenant.call("{}")).content).toBe("tenant=none");
  });

  it("throws a ConfigurationError when applied to something other than a method", () => {
    const decorate = llmTool({ description: "x" }) as unknown as (value: unknown, context: unknown) => void;
    expect(() => decorate(undefined, { kind: "field", name: "count", metadata: {} })).toThrow(
      "@llmTool decorates methods only, not the field 'count'.",
    );
  });

  it("throws a ConfigurationError for a symbol-named method without a name", () => {
    const decorate = llmTool({ description: "x" }) as unknown as (value: unknown, context: unknown) => void;
    const context = {
      kind: "method",
      name: Symbol("s"),
      metadata: {},
      static: false,
      private: false,
      access: {},
    };
    expect(() => decorate(() => "", context)).toThrow(
      /symbol-named method Symbol\(s\) needs an explicit name/,
    );
  });

  it("never puts the context into the schema", () => {
    const tenant = toolNamed(Tool.fromInstance(new Kitchen()), "tenant");
    expect(tenant.definition.inputSchema.parameters).toEqual([]);
  });
});
