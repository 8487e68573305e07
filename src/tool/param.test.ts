import { describe, expect, it } from "vitest";
import { Param } from "./param.js";
import { Tool } from "./tool.js";

describe("Param", () => {
  it("makes a double as a NUMBER parameter with the name as description, required", () => {
    expect(Param.double("x")).toEqual({ name: "x", type: "number", description: "x", required: true });
  });

  it("makes string and integer parameters, required by default", () => {
    expect(Param.string("city", "City name")).toMatchObject({ type: "string", required: true });
    expect(Param.integer("n", "Count", { required: false })).toMatchObject({
      type: "integer",
      required: false,
    });
  });

  it("keeps enum values as strings, copied", () => {
    const values = ["a", "b"];
    const param = Param.integer("level", "Level", { enumValues: values });
    values.push("c");
    expect(param.enumValues).toEqual(["a", "b"]);
  });

  it("is reachable as Tool.Parameter", () => {
    expect(Tool.Parameter).toBe(Param);
  });
});
