import { describe, expect, it } from "vitest";
import { ToolMetadata } from "./tool-metadata.js";

describe("ToolMetadata", () => {
  it("defaults to returnDirect false and no provider metadata", () => {
    expect(ToolMetadata.DEFAULT).toEqual({ returnDirect: false, providerMetadata: {} });
    expect(ToolMetadata.create()).toBe(ToolMetadata.DEFAULT);
  });

  it("creates returnDirect metadata", () => {
    expect(ToolMetadata.create({ returnDirect: true }).returnDirect).toBe(true);
  });

  it("recognises metadata objects", () => {
    expect(ToolMetadata.isToolMetadata(ToolMetadata.DEFAULT)).toBe(true);
    expect(ToolMetadata.isToolMetadata({ returnDirect: true })).toBe(false);
  });
});
