import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { zodToJsonSchema } from "./input-schema.js";
import { fastZodJsonSchema } from "./zod-json-schema.js";

// The fast path must give exactly what zod gives (key order included), so the
// oracle is zod itself: `z.toJSONSchema(schema, { io: "input" })` minus `$schema`.
const RUNS = Number(process.env.ZOD_SCHEMA_RUNS ?? 400);

function zodOutput(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** What zodToJsonSchema must throw for `schema`: zod's own message, wrapped. */
function zodError(schema: z.ZodType): string {
  try {
    zodOutput(schema);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected zod to reject the schema");
}

// ---- a grammar of the shapes the fast path supports, as plain data (readable counterexamples)

type StringOp =
  | ["min" | "max" | "length", number]
  | ["regex", number]
  | ["startsWith" | "endsWith" | "includes", string]
  | ["trim" | "toLowerCase" | "lowercase" | "uppercase"];
type NumberOp =
  | ["int" | "positive" | "negative" | "nonnegative"]
  | ["min" | "max" | "gt" | "lt", number]
  | ["multipleOf", number];
type Mod =
  | ["optional" | "nullable" | "nullish"]
  | ["default", unknown]
  | ["describe", string]
  | ["meta", { title?: string; description?: string; examples?: unknown[]; deprecated?: boolean }];
type Node =
  | { kind: "string"; base: string; local: boolean; precision: number | undefined; ops: StringOp[] }
  | { kind: "number"; base: string; ops: NumberOp[] }
  | { kind: "boolean" | "unknown" | "any" }
  | { kind: "enum"; values: string[] | Record<string, string | number> }
  | { kind: "literal"; values: (string | number | boolean | null)[] }
  | { kind: "array"; element: Wrapped; ops: ["min" | "max" | "length", number][] }
  | { kind: "object"; mode: string; fields: [string, Wrapped][]; share: boolean; catchall: Wrapped };
interface Wrapped {
  node: Node;
  mods: Mod[];
}

const REGEXES = [/a+/, /^[a-z]+$/, /\d{2,}/, /x|y/i];
const STRING_BASES = [
  "string",
  "email",
  "url",
  "uuid",
  "guid",
  "datetime",
  "date",
  "time",
  "duration",
  "ipv4",
  "ipv6",
  "cuid",
  "cuid2",
  "ulid",
  "nanoid",
  "emoji",
  "string.email",
  "string.uuid",
];
const NUMBER_BASES = ["number", "int", "int32", "uint32", "float32", "float64"];

const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: "binary", maxLength: 6 }));
const size = fc.integer({ min: 0, max: 20 });
const bound = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(0.5, 1.5, -2.25, 1e10));
const key = fc
  .oneof(fc.constantFrom("query", "a-b", "constructor", "toString", "0", "12", "with space", "é😀"), text)
  .filter((name) => name !== "__proto__");
const scalar = fc.oneof(text, fc.integer({ min: -50, max: 50 }), fc.boolean(), fc.constant(null));

const stringOp: fc.Arbitrary<StringOp> = fc.oneof(
  fc.tuple(fc.constantFrom("min" as const, "max" as const, "length" as const), size),
  fc.tuple(fc.constant("regex" as const), fc.nat(REGEXES.length - 1)),
  fc.tuple(fc.constantFrom("startsWith" as const, "endsWith" as const, "includes" as const), text),
  fc.tuple(
    fc.constantFrom("trim" as const, "toLowerCase" as const, "lowercase" as const, "uppercase" as const),
  ),
);
const numberOp: fc.Arbitrary<NumberOp> = fc.oneof(
  fc.tuple(fc.constantFrom("int" as const, "positive" as const, "negative" as const, "nonnegative" as const)),
  fc.tuple(fc.constantFrom("min" as const, "max" as const, "gt" as const, "lt" as const), bound),
  fc.tuple(fc.constant("multipleOf" as const), fc.constantFrom(2, 3, 0.5, -3, 10)),
);
const mod: fc.Arbitrary<Mod> = fc.oneof(
  fc.tuple(fc.constantFrom("optional" as const, "nullable" as const, "nullish" as const)),
  fc.tuple(fc.constant("default" as const), fc.jsonValue({ maxDepth: 2 })),
  fc.tuple(fc.constant("describe" as const), text),
  fc.tuple(
    fc.constant("meta" as const),
    fc.record(
      {
        title: text,
        description: text,
        examples: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
        deprecated: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  ),
);

const { wrapped } = fc.letrec<{ wrapped: Wrapped; node: Node }>((tie) => ({
  wrapped: fc.record({ node: tie("node") as fc.Arbitrary<Node>, mods: fc.array(mod, { maxLength: 3 }) }),
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({
      kind: fc.constant("string" as const),
      base: fc.constantFrom(...STRING_BASES),
      local: fc.boolean(),
      precision: fc.constantFrom(undefined, -1, 0, 3),
      ops: fc.array(stringOp, { maxLength: 3 }),
    }),
    fc.record({
      kind: fc.constant("number" as const),
      base: fc.constantFrom(...NUMBER_BASES),
      ops: fc.array(numberOp, { maxLength: 4 }),
    }),
    fc.record({ kind: fc.constantFrom("boolean" as const, "unknown" as const, "any" as const) }),
    fc.record({
      kind: fc.constant("enum" as const),
      values: fc.oneof(
        fc.uniqueArray(text, { minLength: 1, maxLength: 4 }),
        fc.dictionary(fc.constantFrom("A", "B", "C"), fc.oneof(fc.integer({ min: 0, max: 3 }), text), {
          minKeys: 1,
        }),
      ),
    }),
    fc.record({
      kind: fc.constant("literal" as const),
      values: fc.array(scalar, { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      kind: fc.constant("array" as const),
      element: tie("wrapped") as fc.Arbitrary<Wrapped>,
      ops: fc.array(fc.tuple(fc.constantFrom("min" as const, "max" as const, "length" as const), size), {
        maxLength: 2,
      }),
    }),
    fc.record({
      kind: fc.constant("object" as const),
      mode: fc.constantFrom("object", "strictObject", "looseObject", "strict", "passthrough", "catchall"),
      fields: fc.uniqueArray(fc.tuple(key, tie("wrapped") as fc.Arbitrary<Wrapped>), {
        maxLength: 4,
        selector: ([name]) => name,
      }),
      share: fc.boolean(),
      catchall: tie("wrapped") as fc.Arbitrary<Wrapped>,
    }),
  ),
}));

/** A loosely typed zod schema, to apply the generated operations. */
// biome-ignore lint/suspicious/noExplicitAny: the grammar applies methods by name
type Loose = any;

function stringBase(node: Extract<Node, { kind: "string" }>): Loose {
  const dateTime = {
    local: node.local,
    ...(node.precision === undefined ? {} : { precision: node.precision }),
  };
  switch (node.base) {
    case "string":
      return z.string();
    case "datetime":
      return z.iso.datetime(dateTime);
    case "date":
      return z.iso.date();
    case "time":
      return z.iso.time();
    case "duration":
      return z.iso.duration();
    case "string.email":
      return z.string().email();
    case "string.uuid":
      return z.string().uuid();
    default:
      return (z as Loose)[node.base]();
  }
}

function buildNode(node: Node): Loose {
  switch (node.kind) {
    case "string":
      return node.ops.reduce(
        (schema: Loose, [op, arg]) =>
          op === "regex" ? schema.regex(REGEXES[arg as number]) : schema[op](arg),
        stringBase(node),
      );
    case "number": {
      const base = node.base === "number" ? z.number() : (z as Loose)[node.base]();
      return node.ops.reduce((schema: Loose, [op, arg]) => schema[op](arg), base);
    }
    case "boolean":
      return z.boolean();
    case "unknown":
      return z.unknown();
    case "any":
      return z.any();
    case "enum":
      return z.enum(node.values as Loose);
    case "literal":
      return z.literal(node.values.length === 1 ? node.values[0] : (node.values as Loose));
    case "array":
      return node.ops.reduce((schema: Loose, [op, arg]) => schema[op](arg), z.array(build(node.element)));
    case "object": {
      const shape: Record<string, Loose> = {};
      let first: Loose;
      for (const [name, field] of node.fields) {
        shape[name] = node.share && first !== undefined ? first : build(field);
        first ??= shape[name];
      }
      if (node.mode === "strictObject" || node.mode === "looseObject") return z[node.mode](shape);
      if (node.mode === "catchall") return z.object(shape).catchall(build(node.catchall));
      const object: Loose = z.object(shape);
      return node.mode === "object" ? object : object[node.mode]();
    }
  }
}

function build(tree: Wrapped): Loose {
  return tree.mods.reduce(
    (schema: Loose, [op, arg]) => (arg === undefined ? schema[op]() : schema[op](arg)),
    buildNode(tree.node),
  );
}

describe("fastZodJsonSchema", () => {
  it(
    "gives zod's exact input JSON Schema, key order included, for generated schemas of the supported shapes",
    () => {
      fc.assert(
        fc.property(wrapped, (tree) => {
          const schema = build(tree);
          const fast = fastZodJsonSchema(schema);
          const expected = zodOutput(schema);
          expect(fast).toBeDefined();
          expect(JSON.stringify(fast)).toBe(JSON.stringify(expected));
          expect(fast).toEqual(expected);
        }),
        { numRuns: RUNS },
      );
    },
    20_000 + RUNS * 10,
  );

  it("gives the bench's tool schema exactly", () => {
    const schema = z.object({
      query: z.string().describe("What to look up"),
      limit: z.number().int().min(1).max(100).optional().describe("Maximum results"),
      mode: z.enum(["fast", "thorough"]).optional().describe("Search mode"),
    });
    expect(JSON.stringify(fastZodJsonSchema(schema))).toBe(
      '{"type":"object","properties":{"query":{"type":"string","description":"What to look up"},"limit":{"description":"Maximum results","type":"integer","minimum":1,"maximum":100},"mode":{"description":"Search mode","type":"string","enum":["fast","thorough"]}},"required":["query"]}',
    );
  });

  // Each of these is left to zod; zodToJsonSchema must still give zod's output.
  const recursive: Loose = z.object({
    name: z.string(),
    get children() {
      return z.array(recursive);
    },
  });
  const registered = z.string().meta({ id: "Shared" });
  const fallbacks: [string, () => z.ZodType][] = [
    ["a union", () => z.object({ a: z.union([z.string(), z.number()]) })],
    [
      "a discriminated union",
      () => z.discriminatedUnion("k", [z.object({ k: z.literal("a") }), z.object({ k: z.literal("b") })]),
    ],
    ["an intersection", () => z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() }))],
    ["a record", () => z.object({ tags: z.record(z.string(), z.number()) })],
    ["a tuple", () => z.object({ pair: z.tuple([z.string(), z.number()]) })],
    ["recursion", () => recursive],
    ["a lazy schema", () => z.object({ a: z.lazy(() => z.string()) })],
    ["a transform", () => z.object({ a: z.string().transform((value) => value.length) })],
    ["a pipe", () => z.object({ a: z.string().pipe(z.string().min(1)) })],
    ["a refinement", () => z.object({ a: z.string().refine((value) => value.length > 1) })],
    ["a refined object", () => z.object({ a: z.string() }).refine(() => true)],
    ["an id in metadata", () => z.object({ a: z.string().meta({ id: "A" }) })],
    ["an id on the original of a clone", () => z.object({ a: registered.describe("clone") })],
    [
      "metadata the fast path does not know",
      () => z.object({ a: z.string().meta({ format: "custom", "x-order": 1 }) }),
    ],
    ["a base64 string", () => z.object({ a: z.base64() })],
    ["a JWT string", () => z.object({ a: z.jwt() })],
    ["a catch", () => z.object({ a: z.string().catch("x") })],
    ["a prefault", () => z.object({ a: z.string().prefault("x") })],
    ["a readonly", () => z.object({ a: z.array(z.string()).readonly() })],
    ["a nonoptional", () => z.object({ a: z.string().optional().nonoptional() })],
    ["null", () => z.object({ a: z.null() })],
    ["a __proto__ key", () => z.object({ ["__proto__"]: z.string() })],
    ["a non-JSON literal", () => z.object({ a: z.literal(Number.POSITIVE_INFINITY) })],
  ];
  for (const [what, make] of fallbacks) {
    it(`leaves ${what} to zod, and zodToJsonSchema still gives zod's output`, () => {
      const schema = make();
      expect(fastZodJsonSchema(schema)).toBeUndefined();
      expect(JSON.stringify(zodToJsonSchema(make()))).toBe(JSON.stringify(zodOutput(schema)));
    });
  }

  const unrepresentable: [string, () => z.ZodType][] = [
    ["a date", () => z.object({ when: z.date() })],
    ["a bigint", () => z.object({ n: z.bigint() })],
    ["a bigint literal", () => z.object({ n: z.literal(1n) })],
    ["a multipleOf of 0", () => z.object({ n: z.number().multipleOf(0) })],
    ["an undefined default", () => z.object({ a: z.string().default(undefined as unknown as string) })],
    ["a bigint default", () => z.object({ a: z.bigint().default(1n) })],
    ["a map", () => z.object({ m: z.map(z.string(), z.string()) })],
    ["a nullable date", () => z.object({ when: z.date().nullable().describe("When") })],
  ];
  for (const [what, make] of unrepresentable) {
    it(`turns ${what} into zod's error, as a ConfigurationError naming the schema`, () => {
      const schema = make();
      expect(fastZodJsonSchema(schema)).toBeUndefined();
      const expected = `The schema of tool 'x' cannot be turned into JSON Schema: ${zodError(schema)}`;
      expect(() => zodToJsonSchema(schema, "tool 'x'")).toThrow(new ConfigurationError(expected));
    });
  }
});

describe("zodToJsonSchema", () => {
  it("converts a schema once: the same schema gives the same object", () => {
    const schema = z.object({ a: z.string().describe("A") });
    const first = zodToJsonSchema(schema);
    expect(zodToJsonSchema(schema)).toBe(first);
    expect(first).toEqual(zodOutput(schema));
  });

  it("converts a schema zod handles once too", () => {
    const schema = z.object({ a: z.union([z.string(), z.number()]) });
    expect(zodToJsonSchema(schema)).toBe(zodToJsonSchema(schema));
  });

  it("keeps failing for a schema that cannot be converted (nothing is cached)", () => {
    const schema = z.object({ when: z.date() });
    expect(() => zodToJsonSchema(schema)).toThrow(ConfigurationError);
    expect(() => zodToJsonSchema(schema)).toThrow(ConfigurationError);
  });
});
