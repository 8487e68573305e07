import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { objectSchema, type Param, type ParamType } from "./param.js";
import { fastZodJsonSchema } from "./zod-json-schema.js";
import { requireZod4, requireZod4Schema } from "./zod-version.js";

// Fails at import with "embabel-ts needs zod 4 (found 3.x)" when the user's zod is zod 3.
requireZod4(z);

/** A JSON Schema object as sent to providers. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * What a tool accepts. The JSON Schema is computed once, when the schema is
 * made, so the tool loop never re-derives it.
 */
export interface InputSchema {
  /** The parameters, when the schema was built from them (empty for opaque schemas). */
  readonly parameters: readonly Param[];
  /** The JSON Schema sent to the LLM. */
  readonly jsonSchema: JsonSchema;
  /**
   * The typed tool's own parse of the JSON arguments (zod: defaults,
   * transforms, refinements), when it has one: returns what the tool will get,
   * throws (a `TypeParseError`) when the value does not fit. The approval gate
   * decides on its result. @default undefined (the JSON Schema is all there is)
   */
  readonly read?: (value: unknown) => unknown;
  /** The JSON Schema as compact JSON text. */
  toJsonSchema(): string;
  /** A new schema with `param` appended. */
  withParameter(param: Param): InputSchema;
}

class ParamInputSchema implements InputSchema {
  readonly jsonSchema: JsonSchema;
  constructor(readonly parameters: readonly Param[]) {
    this.jsonSchema = objectSchema(parameters);
  }
  toJsonSchema(): string {
    return JSON.stringify(this.jsonSchema);
  }
  withParameter(param: Param): InputSchema {
    return new ParamInputSchema([...this.parameters, param]);
  }
}

class RawInputSchema implements InputSchema {
  private params: readonly Param[] | undefined;
  readonly read?: (value: unknown) => unknown;
  constructor(
    readonly jsonSchema: JsonSchema,
    parameters?: readonly Param[],
    read?: (value: unknown) => unknown,
  ) {
    this.params = parameters;
    if (read !== undefined) this.read = read;
  }
  /** Derived from the JSON Schema on first read (tools built per request rarely ask). */
  get parameters(): readonly Param[] {
    this.params ??= parametersOf(this.jsonSchema);
    return this.params;
  }
  toJsonSchema(): string {
    return JSON.stringify(this.jsonSchema);
  }
  withParameter(param: Param): InputSchema {
    const properties = { ...((this.jsonSchema.properties as Record<string, unknown>) ?? {}) };
    const single = objectSchema([param]);
    Object.assign(properties, single.properties as Record<string, unknown>);
    const required = [
      ...((this.jsonSchema.required as string[]) ?? []),
      ...(param.required ? [param.name] : []),
    ];
    const next: Record<string, unknown> = { ...this.jsonSchema, type: "object", properties };
    if (required.length > 0) next.required = required;
    return new RawInputSchema(next, [...this.parameters, param]);
  }
}

const EMPTY = new ParamInputSchema([]);

const jsonTypes = new Set<ParamType>(["string", "integer", "number", "boolean", "array", "object"]);

/** Best-effort parameter list of a JSON Schema object, for display and `withParameter`. */
function parametersOf(schema: JsonSchema): Param[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const type = jsonTypes.has(property.type as ParamType) ? (property.type as ParamType) : "object";
    const description = typeof property.description === "string" ? property.description : name;
    return { name, type, description, required: required.has(name) };
  });
}

/** Each zod schema's JSON Schema, so a schema shared by several tools is converted once. */
const converted = new WeakMap<z.ZodType, JsonSchema>();

/**
 * JSON Schema of a zod schema in input mode (fields with defaults are
 * optional): exactly `z.toJSONSchema(schema, { io: "input" })` without
 * `$schema`, computed by a fast path for common shapes, once per schema.
 */
export function zodToJsonSchema(schema: z.ZodType, what = "a tool input"): JsonSchema {
  const cached = converted.get(schema);
  if (cached !== undefined) return cached;
  requireZod4Schema(schema, what);
  const json = fastZodJsonSchema(schema) ?? slowZodToJsonSchema(schema, what);
  converted.set(schema, json);
  return json;
}

function slowZodToJsonSchema(schema: z.ZodType, what: string): JsonSchema {
  try {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" }) as Record<string, unknown>;
    delete json.$schema;
    return json;
  } catch (error) {
    throw new ConfigurationError(
      `The schema of ${what} cannot be turned into JSON Schema: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Factories for {@link InputSchema}. */
export const InputSchema = {
  /** A schema made of `params`, in order. */
  of(...params: Param[]): InputSchema {
    return params.length === 0 ? EMPTY : new ParamInputSchema(params);
  },
  /** No parameters: `{"type":"object","properties":{}}`. */
  empty(): InputSchema {
    return EMPTY;
  },
  /** A schema given as JSON Schema (for example from an MCP server). */
  fromJsonSchema(jsonSchema: JsonSchema): InputSchema {
    const normalised =
      jsonSchema.type === undefined ? { type: "object", properties: {}, ...jsonSchema } : jsonSchema;
    return new RawInputSchema(normalised);
  },
  /** A schema from a zod object schema. */
  fromZod(schema: z.ZodType, what?: string): InputSchema {
    return InputSchema.fromJsonSchema(zodToJsonSchema(schema, what));
  },
  /** `schema` with the typed tool's own parse (see {@link InputSchema.read}). */
  withReader(schema: InputSchema, read: (value: unknown) => unknown): InputSchema {
    return new RawInputSchema(schema.jsonSchema, undefined, read);
  },
  /** True for values that are input schemas. */
  isInputSchema(value: unknown): value is InputSchema {
    return value instanceof ParamInputSchema || value instanceof RawInputSchema;
  },
};
