// Over 400 lines: one converter with a case per zod 4 shape (kept together so the fast path and its fallback are read side by side).
import { z } from "zod";

// A fast path for `z.toJSONSchema(schema, { io: "input" })` on the zod 4 shapes
// tools use most: objects, strings, numbers, booleans, enums, literals, arrays,
// optional, nullable, default, and descriptions. It walks `schema._zod.def`
// and builds the same JSON, key order included (provider prompt caches are
// byte-sensitive), about 10× faster than zod's general converter, which
// matters when tools are built per request. Anything it does not certainly
// understand (unions, records, refs, recursion, transforms, pipes, refinements,
// `id` or unknown metadata, unknown checks, a non-empty check bag, zod
// versions whose output differs) gives `undefined`, and the caller falls back
// to zod. Before its first use it converts a probe covering every shape it
// handles both ways; when the two differ (another zod version emits another
// key order), the fast path stays off for the process.

type Json = Record<string, unknown>;

interface ZodNode {
  readonly _zod: {
    readonly def: ZodDef;
    readonly parent?: ZodNode;
    readonly bag?: object;
    readonly traits?: ReadonlySet<string>;
    readonly optin?: string;
    readonly toJSONSchema?: unknown;
  };
}

interface ZodDef {
  readonly type: string;
  readonly checks?: readonly ZodNode[];
  readonly [key: string]: unknown;
}

/** What the checks of a string, number or array say, folded as zod folds them. */
interface Aggregate {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number[];
  format?: string;
  isInt?: boolean;
  laxFormat?: boolean;
  patterns?: Set<RegExp>;
}

type Bound = "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum";

const META_KEYS = new Set(["description", "title", "examples", "deprecated"]);

/** String formats whose JSON Schema is `format` plus the check's own `pattern`. */
const STRING_FORMATS = new Set([
  "email",
  "url",
  "uuid",
  "guid",
  "regex",
  "datetime",
  "date",
  "time",
  "duration",
  "starts_with",
  "ends_with",
  "includes",
  "lowercase",
  "uppercase",
  "ipv4",
  "ipv6",
  "cuid",
  "cuid2",
  "ulid",
  "nanoid",
  "emoji",
]);

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  guid: "uuid",
  url: "uri",
  datetime: "date-time",
  regex: "",
};

const STRING_CHECKS = new Set(["min_length", "max_length", "length_equals", "string_format", "overwrite"]);
const NUMBER_CHECKS = new Set(["greater_than", "less_than", "multiple_of", "number_format"]);
const ARRAY_CHECKS = new Set(["min_length", "max_length", "length_equals"]);

const MAX_DEPTH = 64;

// Read defensively: with zod 3 installed this module still loads, and
// input-schema.ts then reports "embabel-ts needs zod 4".
const registry = (z as { globalRegistry?: unknown }).globalRegistry as {
  has(schema: ZodNode): boolean;
  get(schema: ZodNode): Record<string, unknown> | undefined;
};
const util = (z as { core?: { util?: Record<string, unknown> } }).core?.util;
const numberRanges = util?.NUMBER_FORMAT_RANGES as Record<string, readonly [number, number]> | undefined;
const enumValues = util?.getEnumValues as ((entries: unknown) => unknown[]) | undefined;

/** A number that survives JSON unchanged. */
function isPlainNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0);
}

/** The value as JSON would give it back, or `undefined` when JSON cannot carry it. */
function jsonCopy(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function narrowMin(agg: Aggregate, key: Bound, value: unknown): boolean {
  if (!isPlainNumber(value)) return false;
  const current = agg[key];
  if (current === undefined || value > current) agg[key] = value;
  return true;
}

function narrowMax(agg: Aggregate, key: Bound, value: unknown): boolean {
  if (!isPlainNumber(value)) return false;
  const current = agg[key];
  if (current === undefined || value < current) agg[key] = value;
  return true;
}

function contribute(agg: Aggregate, def: ZodDef, allowed: ReadonlySet<string>): boolean {
  const kind = def.check as string;
  if (!allowed.has(kind)) return false;
  switch (kind) {
    case "greater_than":
      return narrowMin(agg, def.inclusive ? "minimum" : "exclusiveMinimum", def.value);
    case "less_than":
      return narrowMax(agg, def.inclusive ? "maximum" : "exclusiveMaximum", def.value);
    case "multiple_of": {
      if (!isPlainNumber(def.value) || def.value === 0) return false;
      agg.multipleOf ??= [];
      if (!agg.multipleOf.includes(def.value)) agg.multipleOf.push(def.value);
      return true;
    }
    case "number_format": {
      const format = def.format as string;
      const range = numberRanges?.[format];
      if (range === undefined) return false;
      agg.format = format;
      if (format.includes("int")) agg.isInt = true;
      return narrowMin(agg, "minimum", range[0]) && narrowMax(agg, "maximum", range[1]);
    }
    case "min_length":
      return narrowMin(agg, "minimum", def.minimum);
    case "max_length":
      return narrowMax(agg, "maximum", def.maximum);
    case "length_equals":
      return narrowMin(agg, "minimum", def.length) && narrowMax(agg, "maximum", def.length);
    case "string_format": {
      const format = def.format as string;
      if (!STRING_FORMATS.has(format)) return false;
      agg.format = format;
      if (def.pattern) {
        if (!(def.pattern instanceof RegExp)) return false;
        agg.patterns ??= new Set();
        agg.patterns.add(def.pattern);
      }
      if (def.local || def.precision === -1) agg.laxFormat = true;
      return true;
    }
    case "overwrite":
      return true;
    default:
      return false;
  }
}

/** The folded checks of `node`, or `undefined` when one is not understood. */
function aggregate(node: ZodNode, allowed: ReadonlySet<string>): Aggregate | undefined {
  const zod = node._zod;
  // First-party checks leave the bag empty; anything there came from elsewhere.
  for (const _ in zod.bag ?? {}) return undefined;
  const agg: Aggregate = {};
  if (zod.traits?.has("$ZodCheck") && !contribute(agg, zod.def, allowed)) return undefined;
  for (const check of zod.def.checks ?? []) {
    if (!contribute(agg, check._zod.def, allowed)) return undefined;
  }
  return agg;
}

function stringJson(node: ZodNode): Json | undefined {
  const agg = aggregate(node, STRING_CHECKS);
  if (agg === undefined) return undefined;
  const json: Json = { type: "string" };
  if (agg.minimum !== undefined) json.minLength = agg.minimum;
  if (agg.maximum !== undefined) json.maxLength = agg.maximum;
  if (agg.format !== undefined && agg.format !== "time" && !agg.laxFormat) {
    const format = FORMAT_NAMES[agg.format] ?? agg.format;
    if (format !== "") json.format = format;
  }
  if (agg.patterns !== undefined && agg.patterns.size > 0) {
    const patterns = [...agg.patterns];
    if (patterns.length === 1) json.pattern = patterns[0]!.source;
    else json.allOf = patterns.map((pattern) => ({ pattern: pattern.source }));
  }
  return json;
}

function numberJson(node: ZodNode): Json | undefined {
  const agg = aggregate(node, NUMBER_CHECKS);
  if (agg === undefined) return undefined;
  const json: Json = { type: agg.isInt ? "integer" : "number" };
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = agg;
  if (exclusiveMinimum !== undefined && exclusiveMinimum >= (minimum ?? Number.NEGATIVE_INFINITY)) {
    json.exclusiveMinimum = exclusiveMinimum;
  } else if (minimum !== undefined) {
    json.minimum = minimum;
  }
  if (exclusiveMaximum !== undefined && exclusiveMaximum <= (maximum ?? Number.POSITIVE_INFINITY)) {
    json.exclusiveMaximum = exclusiveMaximum;
  } else if (maximum !== undefined) {
    json.maximum = maximum;
  }
  if (multipleOf !== undefined) {
    const [first, ...rest] = new Set(multipleOf.map(Math.abs));
    json.multipleOf = first;
    if (rest.length > 0) json.allOf = rest.map((divisor) => ({ multipleOf: divisor }));
  }
  return json;
}

/** A JSON value zod would emit as is: a string, a plain number, a boolean or null. */
function isScalar(value: unknown): boolean {
  return typeof value === "string" || typeof value === "boolean" || value === null || isPlainNumber(value);
}

function enumJson(def: ZodDef): Json | undefined {
  const values = enumValues?.(def.entries);
  if (!Array.isArray(values)) return undefined;
  if (values.length === 0) return { not: {} };
  if (!values.every((value) => typeof value === "string" || isPlainNumber(value))) return undefined;
  const json: Json = {};
  if (values.every((value) => typeof value === "number")) json.type = "number";
  if (values.every((value) => typeof value === "string")) json.type = "string";
  json.enum = [...values];
  return json;
}

function literalJson(def: ZodDef): Json | undefined {
  const values = def.values;
  if (!Array.isArray(values) || !values.every(isScalar)) return undefined;
  if (values.length === 0) return { not: {} };
  if (values.length === 1) {
    const value = values[0];
    return { type: value === null ? "null" : typeof value, const: value };
  }
  const json: Json = {};
  for (const type of ["number", "string", "boolean"]) {
    if (values.every((value) => typeof value === type)) json.type = type;
  }
  if (values.every((value) => value === null)) json.type = "null";
  json.enum = [...values];
  return json;
}

/** Converts one node; `path` holds the nodes above it (a repeat is recursion). */
function convert(node: ZodNode, path: ZodNode[]): Json | undefined {
  const zod = node?._zod;
  if (
    zod === undefined ||
    zod.toJSONSchema !== undefined ||
    path.length >= MAX_DEPTH ||
    path.includes(node)
  ) {
    return undefined;
  }
  const def = zod.def;
  const checked = def.checks !== undefined && def.checks.length > 0;
  path.push(node);
  let json: Json | undefined;
  let inner: Json | undefined;
  switch (def.type) {
    case "string":
      json = stringJson(node);
      break;
    case "number":
      json = numberJson(node);
      break;
    case "boolean":
      json = checked ? undefined : { type: "boolean" };
      break;
    case "any":
    case "unknown":
      json = checked ? undefined : {};
      break;
    case "enum":
      json = checked ? undefined : enumJson(def);
      break;
    case "literal":
      json = checked ? undefined : literalJson(def);
      break;
    case "array":
      json = arrayJson(node, path);
      break;
    case "object":
      json = checked ? undefined : objectJson(def, path);
      break;
    case "optional":
      inner = checked ? undefined : convert(def.innerType as ZodNode, path);
      json = inner && {};
      break;
    case "default": {
      inner = checked ? undefined : convert(def.innerType as ZodNode, path);
      const value = inner && jsonCopy(def.defaultValue);
      json = value === undefined ? undefined : { default: value };
      break;
    }
    case "nullable":
      json = checked ? undefined : nullableJson(node, convert(def.innerType as ZodNode, path));
      break;
  }
  path.pop();
  if (json === undefined || (def.type !== "nullable" && !addMeta(node, json))) return undefined;
  // A wrapper keeps its own keys first, then gains the inner schema's others.
  if (inner !== undefined) {
    for (const key in inner) if (!Object.hasOwn(json, key)) json[key] = inner[key];
  }
  return json;
}

function arrayJson(node: ZodNode, path: ZodNode[]): Json | undefined {
  const agg = aggregate(node, ARRAY_CHECKS);
  const items = agg && convert(node._zod.def.element as ZodNode, path);
  if (items === undefined) return undefined;
  const json: Json = {};
  if (agg!.minimum !== undefined) json.minItems = agg!.minimum;
  if (agg!.maximum !== undefined) json.maxItems = agg!.maximum;
  json.type = "array";
  json.items = items;
  return json;
}

function objectJson(def: ZodDef, path: ZodNode[]): Json | undefined {
  const shape = def.shape as Record<string, ZodNode>;
  if (typeof shape !== "object" || shape === null || Object.getOwnPropertySymbols(shape).length > 0) {
    return undefined;
  }
  const properties: Json = {};
  for (const key in shape) {
    const property = key === "__proto__" ? undefined : convert(shape[key]!, path);
    if (property === undefined) return undefined;
    properties[key] = property;
  }
  const json: Json = { type: "object", properties };
  const required = Object.keys(shape).filter((key) => !optionalInput(shape[key]!));
  if (required.length > 0) json.required = required;
  const catchall = def.catchall as ZodNode | undefined;
  if (catchall?._zod.def.type === "never") {
    json.additionalProperties = false;
  } else if (catchall !== undefined) {
    const additional = convert(catchall, path);
    if (additional === undefined) return undefined;
    json.additionalProperties = additional;
  }
  return json;
}

/**
 * Whether a field may be left out of the input (zod's `_zod.optin` is set),
 * read from the def for wrappers, whose `optin` zod computes lazily.
 */
function optionalInput(node: ZodNode): boolean {
  const def = node._zod.def;
  if (def.type === "optional" || def.type === "default") return true;
  if (def.type === "nullable") return optionalInput(def.innerType as ZodNode);
  return node._zod.optin !== undefined;
}

/**
 * `anyOf: [inner, {type: "null"}]`, folded into `type: [..., "null"]` when
 * `inner` is a bare type (as zod's final pass does, after the metadata).
 */
function nullableJson(node: ZodNode, inner: Json | undefined): Json | undefined {
  if (inner === undefined) return undefined;
  const keys = Object.keys(inner);
  const innerType = keys.length === 1 && keys[0] === "type" ? inner.type : undefined;
  const types = Array.isArray(innerType) ? [...innerType] : [innerType];
  if (innerType === undefined || !types.every((type) => typeof type === "string")) {
    const json: Json = { anyOf: [inner, { type: "null" }] };
    return addMeta(node, json) ? json : undefined;
  }
  if (!types.includes("null")) types.push("null");
  const json: Json = {};
  if (!addMeta(node, json)) return undefined;
  json.type = types.length === 1 ? types[0] : types;
  return json;
}

/** Adds the node's registered metadata (inherited through clones); false when it has any we do not handle. */
function addMeta(node: ZodNode, json: Json): boolean {
  let registered = false;
  for (let current: ZodNode | undefined = node; current !== undefined; current = current._zod.parent) {
    if (!registry.has(current)) continue;
    registered = true;
    // A clone does not inherit an `id`, but zod still extracts the registered original into $defs.
    if (current !== node && registry.get(current)?.id !== undefined) return false;
  }
  if (!registered) return true;
  const meta = registry.get(node);
  if (meta === undefined) return true;
  if (Object.getOwnPropertySymbols(meta).length > 0) return false;
  for (const key of Object.keys(meta)) {
    if (!META_KEYS.has(key)) return false;
    const value = meta[key];
    if (key === "examples") {
      const copy = jsonCopy(value);
      if (copy === undefined) return false;
      json[key] = copy;
    } else if (key === "deprecated" ? typeof value === "boolean" : typeof value === "string") {
      json[key] = value;
    } else {
      return false;
    }
  }
  return true;
}

/** One schema exercising every shape and ordering rule the fast path relies on. */
function probe(): z.ZodType {
  return z
    .object({
      text: z.string().describe("text"),
      sized: z.string().min(1).max(5).regex(/a+/).trim().describe("sized").optional(),
      exact: z.string().length(3),
      patterns: z.string().regex(/a/).regex(/b/),
      formats: z.object({
        email: z.email().meta({ title: "Email", examples: ["a@b.co"] }),
        uuid: z.uuid(),
        url: z.url(),
        local: z.iso.datetime({ local: true }),
        time: z.iso.time(),
        starts: z.string().startsWith("x"),
      }),
      limit: z.number().int().min(1).max(100).optional().describe("limit"),
      late: z.number().min(1).int(),
      range: z.number().gt(0).lte(10).gte(2).lt(9).multipleOf(2).multipleOf(-3),
      int: z.int().positive(),
      flag: z.boolean().default(false).describe("flag"),
      mode: z.enum(["fast", "slow"]).default("fast"),
      level: z.enum({ Low: 1, High: 2 }),
      kind: z.literal("k"),
      kinds: z.literal(["a", "b"]).nullable(),
      list: z.array(z.string().describe("item")).min(1).max(3).describe("list"),
      strict: z
        .strictObject({ a: z.number().nullable().describe("a").nullable() })
        .nullable()
        .optional()
        .meta({ deprecated: true }),
      loose: z.looseObject({ b: z.unknown() }),
      rest: z.object({}).catchall(z.string().nullable()),
      any: z.any().describe("any"),
    })
    .describe("probe");
}

function zodOutput(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" }) as Json;
  delete json.$schema;
  return json;
}

let calibrated: boolean | undefined;

/** True when the fast path gives zod's exact output for the probe with the zod in use. */
function fastPathWorks(): boolean {
  if (calibrated === undefined) {
    try {
      const schema = probe();
      const fast = convert(schema as unknown as ZodNode, []);
      calibrated =
        z.core.version.major === 4 &&
        fast !== undefined &&
        JSON.stringify(fast) === JSON.stringify(zodOutput(schema));
    } catch {
      calibrated = false;
    }
  }
  return calibrated;
}

/**
 * The input-mode JSON Schema of `schema` exactly as `z.toJSONSchema(schema,
 * { io: "input" })` gives it without `$schema`, or `undefined` when the fast
 * path does not certainly understand the schema (then ask zod).
 */
export function fastZodJsonSchema(schema: z.ZodType): Json | undefined {
  if (!fastPathWorks()) return undefined;
  try {
    return convert(schema as unknown as ZodNode, []);
  } catch {
    return undefined;
  }
}
