import { describe, expect, it } from "vitest";
import { InputSchema } from "../tool/input-schema.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { toolDeclaration, typeOf } from "./tool-declarations.js";

describe("typeOf (JSON Schema to TypeScript)", () => {
  it.each([
    [{ type: "string" }, "string"],
    [{ type: "integer" }, "number"],
    [{ type: ["string", "null"] }, "string | null"],
    [{ enum: ["a", "b"] }, '"a" | "b"'],
    [{ const: 3 }, "3"],
    [{ type: "array", items: { enum: ["a", "b"] } }, 'Array<"a" | "b">'],
    [{ anyOf: [{ type: "string" }, { type: "array", items: { type: "number" } }] }, "string | Array<number>"],
    [
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { type: "object", properties: { b: { type: "number" } } },
        ],
      },
      "{ a: string } & { b?: number }",
    ],
    [{ type: "object" }, "Record<string, unknown>"],
    [{ type: "object", additionalProperties: { type: "number" } }, "{ [key: string]: number }"],
    [{}, "unknown"],
    [
      { type: "object", properties: { "a-b": { type: "string", description: "Odd */ name", default: "x" } } },
      '{ /** Odd * / name @default "x" */ "a-b"?: string }',
    ],
  ])("%j is %s", (schema, expected) => {
    expect(typeOf(schema, 0)).toBe(expected);
  });

  it("stops at depth 6 with unknown", () => {
    let schema: object = { type: "string" };
    for (let i = 0; i < 10; i++) schema = { type: "array", items: schema };
    expect(typeOf(schema, 0)).toBe("Array<Array<Array<Array<Array<Array<Array<unknown>>>>>>>");
  });
});

describe("toolDeclaration", () => {
  it("quotes a name that is not an identifier and makes args optional when nothing is required", () => {
    const tool = Tool.create(
      "get-weather",
      "Weather\nnow",
      InputSchema.fromJsonSchema({ type: "object", properties: { city: { type: "string" } } }),
      () => ToolResult.text(""),
    );
    expect(toolDeclaration(tool)).toBe(
      '  /** Weather now */\n  "get-weather"(args?: { city?: string }): Promise<unknown>;',
    );
  });
});
