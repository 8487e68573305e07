import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { domainType, TypeParseError, TypeToken, typeNameOf, typeNamesOf } from "./type-token.js";

const WorksToFind = domainType("WorksToFind", z.object({ author: z.string(), count: z.number().default(3) }));

class Animal {
  static schema = z.object({ name: z.string() });
  declare name: string;
}
class Dog extends Animal {}

describe("domainType", () => {
  it("names the type, validates, applies defaults and tags the value", () => {
    const works = WorksToFind.parse({ author: "Borges" });
    expect(works).toEqual({ author: "Borges", count: 3 });
    expect(typeNameOf(works)).toBe("WorksToFind");
    expect(WorksToFind.is(works)).toBe(true);
  });

  it("throws a TypeParseError saying which field is wrong", () => {
    expect(() => WorksToFind.parse({ author: 1 })).toThrow(TypeParseError);
    expect(() => WorksToFind.parse({ author: 1 })).toThrow(/Invalid WorksToFind: author: /);
  });

  it("has the input-mode JSON Schema", () => {
    expect(WorksToFind.jsonSchema).toMatchObject({ type: "object", required: ["author"] });
  });
});

describe("TypeToken", () => {
  it("makes tokens for classes, matching subclasses and listing their names", () => {
    const token = TypeToken.of(Animal);
    expect(token.is(new Dog())).toBe(true);
    expect(token.is({ name: "x" })).toBe(false);
    expect(TypeToken.of(Dog).names).toEqual(["Dog", "Animal"]);
    expect(typeNamesOf(new Dog())).toEqual(["Dog", "Animal"]);
  });

  it("parses into a class instance through its static schema", () => {
    const dog = TypeToken.of(Dog).parse({ name: "Rex" });
    expect(dog).toBeInstanceOf(Dog);
    expect(dog.name).toBe("Rex");
    expect(() => TypeToken.of(Dog).parse({})).toThrow(TypeParseError);
  });

  it("keeps a '__proto__' field of a schema-less class as data, never as the prototype", () => {
    class Note {
      text = "";
      shout() {
        return this.text.toUpperCase();
      }
    }
    const note = TypeToken.of(Note).parse(JSON.parse('{"__proto__":{"shout":1},"text":"hi"}'));
    expect(note).toBeInstanceOf(Note);
    expect(note.shout()).toBe("HI");
  });

  it("rejects a non-object for a schema-less class", () => {
    class Note {}
    expect(() => TypeToken.of(Note).parse([1])).toThrow(TypeParseError);
    expect(() => TypeToken.of(Note).parse(null)).toThrow(TypeParseError);
  });

  it("caches one token per class and per schema", () => {
    const schema = z.object({ a: z.string() });
    expect(TypeToken.of(Dog)).toBe(TypeToken.of(Dog));
    expect(TypeToken.of(schema)).toBe(TypeToken.of(schema));
  });

  it("parses a schema's first inputs without zod's parser compilation (jitless), later ones as zod chooses, with the same results", () => {
    const schema = z.object({ query: z.string(), limit: z.number().int().optional() });
    const parse = vi.spyOn(schema, "safeParse");
    const token = TypeToken.of(schema);
    const results = Array.from({ length: 12 }, (_, index) =>
      index % 2 === 0 ? token.parse({ query: `q${index}`, limit: index, extra: 1 }) : token.is({ query: 1 }),
    );
    expect(parse.mock.calls.map((call) => call[1])).toEqual([
      ...Array.from({ length: 8 }, () => ({ jitless: true })),
      ...Array.from({ length: 4 }, () => undefined),
    ]);
    expect(results).toEqual(
      Array.from({ length: 12 }, (_, index) =>
        index % 2 === 0 ? { query: `q${index}`, limit: index } : false,
      ),
    );
    expect(() => token.parse({ query: 3 })).toThrow(TypeParseError);
  });

  it("makes primitive tokens and ANY", () => {
    expect(TypeToken.of(String).is("x")).toBe(true);
    expect(TypeToken.of(Number).is("1")).toBe(false);
    expect(TypeToken.ANY.is(0)).toBe(true);
    expect(TypeToken.ANY.is(null)).toBe(false);
  });

  it("recognises tokens", () => {
    expect(TypeToken.isTypeToken(WorksToFind)).toBe(true);
    expect(TypeToken.isTypeToken(z.string())).toBe(false);
  });
});
