import { ConfigurationError } from "../errors/configuration-error.js";

/** The JSON Schema type of a parameter. */
export type ParamType = "string" | "integer" | "number" | "boolean" | "array" | "object";

/** One parameter of a tool's input. */
export interface Param {
  readonly name: string;
  readonly type: ParamType;
  /** What the LLM should supply. @default the name */
  readonly description: string;
  /** @default true */
  readonly required: boolean;
  /** Allowed values, always strings. */
  readonly enumValues?: readonly string[];
  /** Fields of an `object` parameter. */
  readonly properties?: readonly Param[];
  /** Item type of an `array` parameter. */
  readonly itemType?: ParamType;
}

/** Options of the {@link Param} factories. */
export interface ParamOptions {
  /** @default true */
  readonly required?: boolean;
  /** Allowed values. */
  readonly enumValues?: readonly string[];
}

/**
 * The options of a factory call, from the options object or from the
 * chapter's positional form `(name, description, required, enumValues)`;
 * anything else is a {@link ConfigurationError} (never silently ignored).
 */
function optionsOf(
  factory: string,
  name: string,
  options: ParamOptions | boolean | undefined,
  enumValues: readonly string[] | undefined,
): ParamOptions {
  const owner = `Param.${factory}("${name}")`;
  if (enumValues !== undefined) {
    if (!Array.isArray(enumValues) || enumValues.some((value) => typeof value !== "string")) {
      throw new ConfigurationError(`${owner}: enum values must be an array of strings.`);
    }
    if (typeof options !== "boolean") {
      throw new ConfigurationError(
        `${owner}: enum values given positionally need the positional required flag before them: (name, description, required, enumValues), or pass { required, enumValues }.`,
      );
    }
  }
  if (typeof options === "boolean")
    return enumValues ? { required: options, enumValues } : { required: options };
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ConfigurationError(
      `${owner}: the third argument must be the required flag (true/false) or an options object { required, enumValues }, got ${JSON.stringify(options)}.`,
    );
  }
  if (options.required !== undefined && typeof options.required !== "boolean") {
    throw new ConfigurationError(`${owner}: required must be true or false.`);
  }
  return options;
}

function make(
  type: ParamType,
  name: string,
  description: string | undefined,
  options: ParamOptions & { properties?: readonly Param[]; itemType?: ParamType } = {},
): Param {
  return {
    name,
    type,
    description: description ?? name,
    required: options.required ?? true,
    ...(options.enumValues ? { enumValues: [...options.enumValues] } : {}),
    ...(options.properties ? { properties: options.properties } : {}),
    ...(options.itemType ? { itemType: options.itemType } : {}),
  };
}

/** A string, integer or double factory: options as an object, or the chapter's positional `(required, enumValues)`. */
export interface ScalarParamFactory {
  (name: string, description?: string, options?: ParamOptions): Param;
  (name: string, description: string, required: boolean, enumValues?: readonly string[]): Param;
}

function scalar(factory: string, type: ParamType): ScalarParamFactory {
  return (
    name: string,
    description?: string,
    options?: ParamOptions | boolean,
    enumValues?: readonly string[],
  ): Param => make(type, name, description, optionsOf(factory, name, options, enumValues));
}

/**
 * Factories for tool parameters (`Param.string("city", "City name")`);
 * `required` defaults to true. The chapter's positional forms work too:
 * `Param.integer("precision", "Digits", false)`,
 * `Param.string("unit", "Unit", true, ["C", "F"])`.
 */
export const Param = {
  /** A string parameter. */
  string: scalar("string", "string"),
  /** An integer parameter. */
  integer: scalar("integer", "integer"),
  /** A floating-point parameter (JSON Schema `number`). */
  double: scalar("double", "number"),
  /** A boolean parameter. */
  boolean: (name: string, description?: string, options?: Pick<ParamOptions, "required">): Param =>
    make("boolean", name, description, options),
  /** An array parameter whose items are of `itemType`. */
  array: (
    name: string,
    itemType: ParamType,
    description?: string,
    options?: Pick<ParamOptions, "required">,
  ): Param => make("array", name, description, { ...options, itemType }),
  /** An object parameter with nested fields. */
  object: (
    name: string,
    properties: readonly Param[],
    description?: string,
    options?: Pick<ParamOptions, "required">,
  ): Param => make("object", name, description, { ...options, properties }),
};

/** The JSON Schema of one parameter, with keys in the order providers expect. */
export function paramJsonSchema(param: Param): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: param.type, description: param.description };
  if (param.enumValues) schema.enum = [...param.enumValues];
  if (param.type === "array" && param.itemType) schema.items = { type: param.itemType };
  if (param.type === "object" && param.properties) Object.assign(schema, objectSchema(param.properties));
  return schema;
}

/** `{"type":"object","properties":{…},"required":[…]}`; `required` is omitted when empty. */
export function objectSchema(params: readonly Param[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const param of params) {
    properties[param.name] = paramJsonSchema(param);
    if (param.required) required.push(param.name);
  }
  return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
}
