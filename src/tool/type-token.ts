import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { TypeParseError } from "../errors/type-parse-error.js";
import { type JsonSchema, zodToJsonSchema } from "./input-schema.js";
import { isForeignZod4Schema, requireZod4Schema } from "./zod-version.js";

/**
 * A runtime handle on a type: what the specification passes as `Class<T>`.
 * Made from a class constructor, a named zod schema ({@link domainType}), an
 * anonymous zod schema, or `String` / `Number` / `Boolean`.
 */
export interface TypeToken<T = unknown> {
  /** The simple type name (`WorksToFind`). */
  readonly name: string;
  /** Whether `value` is of this type. */
  is(value: unknown): value is T;
  /** The JSON Schema of the type, as the LLM sees it. */
  readonly jsonSchema: JsonSchema;
  /** Validates a parsed JSON value into the type; throws {@link TypeParseError} saying which field is wrong. */
  parse(value: unknown): T;
  /** Names this type answers to, for matching by name (simple and qualified names, parents). */
  readonly names: readonly string[];
}

/** Anything a {@link TypeToken} can be made from. */
export type TypeLike<T = unknown> =
  | TypeToken<T>
  | (abstract new (
      ...args: never[]
    ) => T)
  | z.ZodType<T>
  | StringConstructor
  | NumberConstructor
  | BooleanConstructor;

/** The value of the type `TypeLike` describes. */
export type TypeOf<L> =
  L extends TypeToken<infer T>
    ? T
    : L extends StringConstructor
      ? string
      : L extends NumberConstructor
        ? number
        : L extends BooleanConstructor
          ? boolean
          : L extends z.ZodType<infer T>
            ? T
            : L extends abstract new (
                  ...args: never[]
                ) => infer T
              ? T
              : unknown;

/** Thrown by {@link TypeToken.parse} when a value does not fit the type. */
export { TypeParseError };

const tokenBrand = Symbol.for("embabel-ts.type-token");
const domainTags = new WeakMap<object, DomainType<unknown>>();

/** One line per zod issue: `path: message`. */
export function describeZodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
    return `${path}: ${issue.message}`;
  });
}

/** Parse options that keep zod from compiling a parser (JIT) for the schema. */
const JITLESS = { jitless: true } as const;
/**
 * How many parses of a token's schema run interpreted. zod compiles an object
 * schema's parser on its first parse, which costs more than a few interpreted
 * parses; a tool built per request is called only a few times.
 */
const INTERPRETED_PARSES = 8;

abstract class BaseToken<T> implements TypeToken<T> {
  readonly [tokenBrand] = true;
  private cachedSchema: JsonSchema | undefined;
  private parses = 0;
  abstract readonly name: string;
  /** Whether `value` is of this type. */
  abstract is(value: unknown): value is T;
  /** Validates a parsed JSON value into the type; throws {@link TypeParseError} saying which field is wrong. */
  abstract parse(value: unknown): T;
  /** Computes the type's JSON Schema (once; `jsonSchema` caches it). */
  protected abstract computeSchema(): JsonSchema;
  get names(): readonly string[] {
    return [this.name];
  }
  get jsonSchema(): JsonSchema {
    this.cachedSchema ??= this.computeSchema();
    return this.cachedSchema;
  }
  /** `schema.safeParse(value)`, interpreted for the first parses, then as zod chooses. */
  protected safeParse<S>(schema: z.ZodType<S>, value: unknown): z.ZodSafeParseResult<S> {
    if (this.parses >= INTERPRETED_PARSES) return schema.safeParse(value);
    this.parses += 1;
    return schema.safeParse(value, JITLESS);
  }

  /** `value` parsed by `schema`, or a {@link TypeParseError} naming this type and each issue. */
  protected parsed<S>(schema: z.ZodType<S>, value: unknown): S {
    const result = this.safeParse(schema, value);
    if (!result.success) throw new TypeParseError(this.name, describeZodIssues(result.error));
    return result.data;
  }
}

/** A named type defined by a zod schema: `domainType("WorksToFind", z.object({...}))`. */
export class DomainType<T> extends BaseToken<T> {
  constructor(
    readonly name: string,
    readonly schema: z.ZodType<T>,
    readonly description?: string,
  ) {
    super();
  }
  is(value: unknown): value is T {
    if (typeof value === "object" && value !== null) {
      const tag = domainTags.get(value);
      if (tag !== undefined) return tag === this || tag.name === this.name;
    }
    return this.safeParse(this.schema, value).success;
  }
  parse(value: unknown): T {
    return this.tag(this.parsed(this.schema, value));
  }
  /** Validates `value` and marks it as an instance of this type (for blackboard lookup by name). */
  create(value: T): T {
    return this.parse(value);
  }
  /** Marks an already valid value as an instance of this type. */
  tag(value: T): T {
    if (typeof value === "object" && value !== null) domainTags.set(value, this as DomainType<unknown>);
    return value;
  }
  protected computeSchema(): JsonSchema {
    const schema = zodToJsonSchema(this.schema, `domain type ${this.name}`);
    return this.description && schema.description === undefined
      ? { ...schema, description: this.description }
      : schema;
  }
}

/** Declares a named domain type backed by a zod schema. */
export function domainType<S extends z.ZodType>(
  name: string,
  schema: S,
  options: { description?: string } = {},
): DomainType<z.output<S>> {
  return new DomainType(name, schema as z.ZodType<z.output<S>>, options.description);
}

class ZodToken<T> extends BaseToken<T> {
  private cachedName: string | undefined;
  constructor(readonly schema: z.ZodType<T>) {
    super();
  }
  /** The schema's description, or `Object` (read on first use: a registry lookup). */
  get name(): string {
    this.cachedName ??= this.schema.description ?? "Object";
    return this.cachedName;
  }
  is(value: unknown): value is T {
    return this.safeParse(this.schema, value).success;
  }
  parse(value: unknown): T {
    return this.parsed(this.schema, value);
  }
  protected computeSchema(): JsonSchema {
    return zodToJsonSchema(this.schema, this.name);
  }
}

type Ctor = abstract new (...args: never[]) => unknown;

class ClassToken<T> extends BaseToken<T> {
  constructor(readonly type: Ctor) {
    super();
  }
  get name(): string {
    return this.type.name;
  }
  override get names(): readonly string[] {
    return classNames(this.type.prototype, []);
  }
  is(value: unknown): value is T {
    return value instanceof this.type;
  }
  private get schema(): z.ZodType | undefined {
    const candidate = (this.type as unknown as { schema?: unknown }).schema;
    requireZod4Schema(candidate, `the static schema of class ${this.name}`);
    return candidate instanceof z.ZodType ? candidate : undefined;
  }
  parse(value: unknown): T {
    const fromJSON = (this.type as unknown as { fromJSON?: (v: unknown) => T }).fromJSON;
    if (typeof fromJSON === "function") return fromJSON.call(this.type, value);
    let data = value;
    const schema = this.schema;
    if (schema) {
      data = this.parsed(schema, value);
    } else if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new TypeParseError(this.name, ["(root): expected an object"]);
    }
    return ownFieldsOnto(Object.create(this.type.prototype as object) as object, data) as T;
  }
  protected computeSchema(): JsonSchema {
    const schema = this.schema;
    return schema ? zodToJsonSchema(schema, `class ${this.name}`) : { type: "object", properties: {} };
  }
}

/**
 * Copies `data`'s own fields onto `target` as plain properties. Unlike
 * `Object.assign`, a `"__proto__"` key from the LLM's JSON stays an ordinary
 * field instead of replacing the instance's prototype.
 */
function ownFieldsOnto(target: object, data: unknown): object {
  for (const [key, value] of Object.entries(data as object)) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return target;
}

class PrimitiveToken<T> extends BaseToken<T> {
  constructor(
    readonly name: string,
    private readonly primitive: "string" | "number" | "boolean",
  ) {
    super();
  }
  is(value: unknown): value is T {
    return typeof value === this.primitive;
  }
  parse(value: unknown): T {
    if (typeof value !== this.primitive)
      throw new TypeParseError(this.name, [`(root): expected ${this.primitive}`]);
    return value as T;
  }
  protected computeSchema(): JsonSchema {
    return { type: this.primitive };
  }
}

class AnyToken extends BaseToken<unknown> {
  readonly name = "Object";
  is(value: unknown): value is unknown {
    return value !== undefined && value !== null;
  }
  parse(value: unknown): unknown {
    return value;
  }
  protected computeSchema(): JsonSchema {
    return {};
  }
}

const STRING = new PrimitiveToken<string>("String", "string");
const NUMBER = new PrimitiveToken<number>("Number", "number");
const BOOLEAN = new PrimitiveToken<boolean>("Boolean", "boolean");
const ANY = new AnyToken();
const classTokens = new WeakMap<Ctor, ClassToken<unknown>>();
const zodTokens = new WeakMap<z.ZodType, ZodToken<unknown>>();

/** Factories and helpers for {@link TypeToken}. */
export const TypeToken = {
  /** The token for `typeLike` (cached per class and schema). */
  of<L extends TypeLike>(typeLike: L): TypeToken<TypeOf<L>> {
    return toToken(typeLike) as TypeToken<TypeOf<L>>;
  },
  /** Matches every non-null value. */
  ANY: ANY as TypeToken<unknown>,
  /** True for type tokens. */
  isTypeToken(value: unknown): value is TypeToken {
    return (
      typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[tokenBrand] === true
    );
  },
};

function toToken(typeLike: TypeLike): TypeToken {
  if (TypeToken.isTypeToken(typeLike)) return typeLike;
  if (typeLike === String) return STRING;
  if (typeLike === Number) return NUMBER;
  if (typeLike === Boolean) return BOOLEAN;
  if (typeLike instanceof z.ZodType) {
    let token = zodTokens.get(typeLike);
    if (!token) {
      token = new ZodToken(typeLike);
      zodTokens.set(typeLike, token);
    }
    return token;
  }
  if (typeof typeLike === "function") {
    let token = classTokens.get(typeLike as Ctor);
    if (!token) {
      token = new ClassToken(typeLike as Ctor);
      classTokens.set(typeLike as Ctor, token);
    }
    return token;
  }
  requireZod4Schema(typeLike, "a type argument");
  if (isForeignZod4Schema(typeLike)) {
    throw new ConfigurationError(
      "A zod schema from a second copy of zod was passed to embabel-ts. Keep one copy (zod is a peer dependency of embabel-ts): run 'npm ls zod', then 'npm dedupe'.",
    );
  }
  throw new TypeError(`Not a type: ${String(typeLike)}`);
}

/** The type name of a value: its domain type, its class, or its JavaScript type. */
export function typeNameOf(value: unknown): string {
  if (typeof value === "object" && value !== null) {
    const tag = domainTags.get(value);
    if (tag) return tag.name;
    const name = (value as { constructor?: { name?: string } }).constructor?.name;
    return name && name !== "Object" ? name : "Object";
  }
  if (typeof value === "string") return "String";
  if (typeof value === "number") return "Number";
  if (typeof value === "boolean") return "Boolean";
  return typeof value;
}

/** Appends to `names` the class name of `proto` and of each prototype above it (short of `Object`); returns `names`. */
function classNames(proto: unknown, names: string[]): string[] {
  for (let at = proto; at && at !== Object.prototype; at = Object.getPrototypeOf(at)) {
    const name = (at as { constructor: { name: string } }).constructor.name;
    if (name) names.push(name);
  }
  return names;
}

/** Every name `value` answers to: its domain type, its class and superclasses. */
export function typeNamesOf(value: unknown): string[] {
  if (typeof value === "object" && value !== null) {
    const tag = domainTags.get(value);
    const names = classNames(Object.getPrototypeOf(value), tag ? [tag.name] : []);
    if (names.length === 0) names.push("Object");
    return names;
  }
  return [typeNameOf(value)];
}
