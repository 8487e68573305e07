import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { InputSchema } from "./input-schema.js";
import { Param } from "./param.js";

describe("InputSchema", () => {
  it("renders the empty schema exactly", () => {
    expect(InputSchema.empty().toJsonSchema()).toBe('{"type":"object","properties":{}}');
    expect(InputSchema.of().toJsonSchema()).toBe('{"type":"object","properties":{}}');
  });

  it("lists required parameters in declaration order, keys type/properties/required", () => {
    const schema = InputSchema.of(Param.string("city", "City name"), Param.integer("days", "Days"));
    expect(schema.toJsonSchema()).toBe(
      '{"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer","description":"Days"}},"required":["city","days"]}',
    );
  });

  it("omits required when no parameter is required", () => {
    const schema = InputSchema.of(Param.string("units", "Units", { required: false }));
    expect(schema.toJsonSchema()).not.toContain('"required"');
  });

  it("renders enum values compactly", () => {
    const schema = InputSchema.of(Param.string("color", "Color", { enumValues: ["red", "green", "blue"] }));
    expect(schema.toJsonSchema()).toContain('"enum":["red","green","blue"]');
  });

  it("renders array items and nested objects", () => {
    const schema = InputSchema.of(
      Param.array("scores", "number", "Scores"),
      Param.object("address", [Param.string("street", "Street")], "Address"),
    );
    expect(schema.jsonSchema).toEqual({
      type: "object",
      properties: {
        scores: { type: "array", description: "Scores", items: { type: "number" } },
        address: {
          type: "object",
          description: "Address",
          properties: { street: { type: "string", description: "Street" } },
          required: ["street"],
        },
      },
      required: ["scores", "address"],
    });
  });

  it("appends a parameter with withParameter, leaving the original unchanged", () => {
    const original = InputSchema.of(Param.string("a", "A"));
    const extended = original.withParameter(Param.integer("b", "B", { required: false }));
    expect(extended.parameters.map((param) => param.name)).toEqual(["a", "b"]);
    expect(original.parameters).toHaveLength(1);
  });

  it("derives an input-mode schema from zod: fields with defaults are optional", () => {
    const schema = InputSchema.fromZod(z.object({ name: z.string(), greeting: z.string().default("Hi") }));
    expect(schema.jsonSchema).toMatchObject({ type: "object", required: ["name"] });
    expect(schema.parameters.map((param) => [param.name, param.required])).toEqual([
      ["name", true],
      ["greeting", false],
    ]);
  });

  it("fails fast with a ConfigurationError for a schema JSON Schema cannot express", () => {
    expect(() => InputSchema.fromZod(z.object({ when: z.date() }), "tool 'x'")).toThrow(ConfigurationError);
  });

  it("accepts raw JSON Schema and can extend it", () => {
    const schema = InputSchema.fromJsonSchema({
      type: "object",
      properties: { q: { type: "string", description: "Query" } },
      required: ["q"],
    }).withParameter(Param.integer("limit", "Limit", { required: false }));
    expect(schema.jsonSchema).toMatchObject({ required: ["q"], properties: { limit: { type: "integer" } } });
    expect(schema.parameters.map((param) => param.name)).toEqual(["q", "limit"]);
  });

  it("recognises input schemas", () => {
    expect(InputSchema.isInputSchema(InputSchema.empty())).toBe(true);
    expect(InputSchema.isInputSchema({ jsonSchema: {} })).toBe(false);
  });
});
