import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { ToolObject } from "./tool-object.js";

const pair = z.object({ a: z.number(), b: z.number() });

class Calculator {
  @llmTool({ description: "Adds two numbers", input: pair })
  computeSum({ a, b }: z.output<typeof pair>): number {
    return a + b;
  }

  @llmTool({ description: "Multiplies two numbers", input: pair })
  computeProduct({ a, b }: z.output<typeof pair>): number {
    return a * b;
  }

  @llmTool({ description: "Says hello" })
  greet(): string {
    return "hello";
  }
}

function names(object: ToolObject): string[] {
  return object.tools().map((tool) => tool.definition.name);
}

describe("ToolObject", () => {
  it("offers every @llmTool method of the object", () => {
    expect(names(new ToolObject(new Calculator()))).toEqual(["computeSum", "computeProduct", "greet"]);
  });

  it("names tools with a naming strategy", () => {
    expect(names(new ToolObject(new Calculator()).withNamingStrategy((name) => `calc_${name}`))).toEqual([
      "calc_computeSum",
      "calc_computeProduct",
      "calc_greet",
    ]);
  });

  it("names tools with a prefix", () => {
    expect(names(ToolObject.of(new Calculator()).withPrefix("math_"))[0]).toBe("math_computeSum");
  });

  it("filters by the original name before renaming", () => {
    const object = new ToolObject(new Calculator())
      .withNamingStrategy((name) => `calc_${name}`)
      .withFilter((name) => name.startsWith("compute"));
    expect(names(object)).toEqual(["calc_computeSum", "calc_computeProduct"]);
  });

  it("filters on the method name, not on a tool name given with @llmTool({ name })", () => {
    class Service {
      @llmTool({ name: "sum_numbers", description: "Adds" })
      computeSum(): number {
        return 1;
      }

      @llmTool({ name: "compute_all", description: "Not a compute method" })
      everything(): number {
        return 2;
      }
    }
    const object = new ToolObject(new Service()).withFilter((methodName) => methodName.startsWith("compute"));
    expect(names(object)).toEqual(["sum_numbers"]);
  });

  it("filters a tool given as the object by its name", () => {
    const tool = Tool.create("compute_x", "X", () => ToolResult.text("x"));
    expect(names(new ToolObject(tool).withFilter((name) => name === "compute_x"))).toEqual(["compute_x"]);
    expect(names(new ToolObject(tool).withFilter(() => false))).toEqual([]);
  });

  it("renamed tools still call the method", async () => {
    const [sum] = new ToolObject(new Calculator()).withPrefix("calc_").tools();
    expect((await sum?.call('{"a":2,"b":3}'))?.content).toBe("5");
  });

  it("offers nothing for an object without tool methods", () => {
    expect(new ToolObject({ plain: true }).tools()).toEqual([]);
  });

  it("uses a Tool given as the object as it is", () => {
    const tool = Tool.create("ping", "Ping", async () => ToolResult.text("pong"));
    expect(new ToolObject(tool).tools()).toEqual([tool]);
  });

  it("returns a ToolObject given to of() unchanged", () => {
    const object = new ToolObject(new Calculator());
    expect(ToolObject.of(object)).toBe(object);
  });

  it("refuses iterables, pointing at withTools", () => {
    expect(() => new ToolObject([new Calculator()])).toThrow(ConfigurationError);
    expect(() => new ToolObject([new Calculator()])).toThrow(/cannot be an Iterable.*withTools/);
  });

  it("is immutable: with* returns a copy", () => {
    const object = new ToolObject(new Calculator());
    object.withPrefix("x_");
    object.withFilter(() => false);
    expect(names(object)).toHaveLength(3);
  });
});
