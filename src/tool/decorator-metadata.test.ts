import { describe, expect, it } from "vitest";
import { decoratorMetadataOf, METADATA, metadataListsOf, ownMetadataList } from "./decorator-metadata.js";

const KEY = Symbol("test-key");

function tag(value: string) {
  return (_target: unknown, context: ClassDecoratorContext | ClassMethodDecoratorContext) => {
    ownMetadataList<string>(context.metadata as Record<PropertyKey, unknown>, KEY).push(value);
  };
}

@tag("base-class")
class Base {
  @tag("base-method")
  method(): void {}
}

class Derived extends Base {
  @tag("derived-method")
  other(): void {}
}

class Plain {}

describe("METADATA", () => {
  it("is Symbol.metadata, defined as the registered symbol esbuild falls back to", () => {
    expect(METADATA).toBe((Symbol as unknown as { metadata: symbol }).metadata);
    expect(METADATA).toBe(Symbol.for("Symbol.metadata"));
  });
});

describe("decoratorMetadataOf", () => {
  it("finds a class's metadata from the class or an instance", () => {
    expect(decoratorMetadataOf(Base)).toBeDefined();
    expect(decoratorMetadataOf(new Base())).toBe(decoratorMetadataOf(Base));
  });

  it("is undefined for undecorated classes and null-prototype objects", () => {
    expect(decoratorMetadataOf(new Plain())).toBeUndefined();
    expect(decoratorMetadataOf(Object.create(null))).toBeUndefined();
  });
});

describe("metadataListsOf", () => {
  it("returns each class's own list, superclass first", () => {
    expect(metadataListsOf<string>(new Derived(), KEY)).toEqual([
      ["base-method", "base-class"],
      ["derived-method"],
    ]);
  });
});

describe("ownMetadataList", () => {
  it("creates a list per class instead of appending to the superclass's", () => {
    expect(metadataListsOf<string>(new Base(), KEY)).toEqual([["base-method", "base-class"]]);
  });
});
