import { describe, expect, it } from "vitest";
import { jsonSchemaValidator } from "./json-schema-validator.js";

describe("jsonSchemaValidator", () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string" },
      count: { type: "integer" },
      tags: { type: "array", items: { type: "string" } },
      mode: { enum: ["a", "b"] },
      note: { type: ["string", "null"] },
    },
    required: ["name"],
  };

  it("accepts valid values", () => {
    expect(jsonSchemaValidator(schema)({ name: "x", count: 2, tags: ["t"], mode: "a", note: null })).toEqual(
      [],
    );
  });

  it("reports every problem with its path", () => {
    expect(jsonSchemaValidator(schema)({ count: 1.5, tags: ["ok", 3], mode: "c" })).toEqual([
      "missing required field 'name'",
      "field 'count' must be integer, got number",
      "field 'tags[1]' must be string, got integer",
      `field 'mode' must be one of ["a","b"], got "c"`,
    ]);
  });

  it("accepts a value matching any type of a type list", () => {
    expect(jsonSchemaValidator(schema)({ name: "x", note: 3 })).toEqual([
      "field 'note' must be string or null, got integer",
    ]);
  });

  it("accepts anything for keywords it does not know", () => {
    expect(jsonSchemaValidator({ anyOf: [{ type: "string" }] })(42)).toEqual([]);
  });

  it("compiles a schema object once and reuses the validator", () => {
    expect(jsonSchemaValidator(schema)).toBe(jsonSchemaValidator(schema));
  });
});
