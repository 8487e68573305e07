// The chapter's Java-style positional forms, as a JavaScript caller writes them
// (TypeScript accepts them through overloads too): they work, or they are a
// ConfigurationError — never silently ignored.
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { InputSchema } from "./input-schema.js";
import { Tool } from "./tool.js";
import { ToolMetadata } from "./tool-metadata.js";
import { ToolResult } from "./tool-result.js";

/** Calls `fn` with arguments TypeScript would refuse, as JavaScript may. */
const untyped = (fn: unknown, ...args: unknown[]): unknown => (fn as (...a: unknown[]) => unknown)(...args);

describe("Tool.Parameter positional forms", () => {
  it("takes required as the third argument", () => {
    expect(Tool.Parameter.integer("precision", "Digits", false)).toMatchObject({
      type: "integer",
      required: false,
    });
    expect(Tool.Parameter.double("x", "X", true)).toMatchObject({ type: "number", required: true });
  });

  it("takes enum values as the fourth", () => {
    expect(Tool.Parameter.string("unit", "Unit", true, ["C", "F"])).toEqual({
      name: "unit",
      type: "string",
      description: "Unit",
      required: true,
      enumValues: ["C", "F"],
    });
  });

  it("refuses what it cannot read", () => {
    expect(() => untyped(Tool.Parameter.string, "u", "U", "no")).toThrow(ConfigurationError);
    expect(() => untyped(Tool.Parameter.string, "u", "U", "no")).toThrow(
      /third argument must be the required flag/,
    );
    expect(() => untyped(Tool.Parameter.string, "u", "U", true, "C")).toThrow(/array of strings/);
    expect(() => untyped(Tool.Parameter.string, "u", "U", undefined, ["C"])).toThrow(
      /positional required flag/,
    );
    expect(() => untyped(Tool.Parameter.integer, "n", "N", { required: "yes" })).toThrow(
      /required must be true or false/,
    );
  });
});

describe("Tool.Metadata.create positional form", () => {
  it("takes returnDirect, then provider metadata", () => {
    expect(Tool.Metadata.create(true)).toMatchObject({ returnDirect: true });
    expect(Tool.Metadata.create(false)).toBe(ToolMetadata.DEFAULT);
    expect(Tool.Metadata.create(true, { vendor: "x" })).toEqual({
      returnDirect: true,
      providerMetadata: { vendor: "x" },
    });
  });

  it("refuses what it cannot read", () => {
    expect(() => untyped(Tool.Metadata.create, "yes")).toThrow(ConfigurationError);
    expect(() => untyped(Tool.Metadata.create, { returnDirect: "yes" })).toThrow(
      /returnDirect must be true or false/,
    );
    expect(() => untyped(Tool.Metadata.create, {}, { vendor: "x" })).toThrow(/positional returnDirect/);
  });
});

describe("Tool.create five-argument form", () => {
  it("takes (name, description, inputSchema, metadata, handler)", async () => {
    const tool = Tool.create(
      "lookup",
      "Looks up data directly",
      InputSchema.of(Tool.Parameter.string("key", "Key")),
      Tool.Metadata.create(true),
      (input) => ToolResult.text(`Direct result for ${input}`),
    );
    expect(tool.metadata.returnDirect).toBe(true);
    expect(tool.definition.inputSchema.jsonSchema).toMatchObject({ required: ["key"] });
    expect(await tool.call('{"key":"k"}')).toMatchObject({ content: 'Direct result for {"key":"k"}' });
  });

  it("refuses a handler that is not last, a misplaced argument, or too many", () => {
    const handler = () => ToolResult.text("x");
    expect(() => untyped(Tool.create, "t", "T", InputSchema.empty(), ToolMetadata.DEFAULT)).toThrow(
      /last argument must be the handler/,
    );
    expect(() => untyped(Tool.create, "t", "T", ToolMetadata.DEFAULT, InputSchema.empty(), handler)).toThrow(
      /must be an InputSchema/,
    );
    expect(() =>
      untyped(Tool.create, "t", "T", InputSchema.empty(), { returnDirect: true }, handler),
    ).toThrow(/expected an InputSchema or ToolMetadata/);
    expect(() => untyped(Tool.create, "t", "T", 1, 2, 3, handler)).toThrow(/got 6 arguments/);
  });
});
