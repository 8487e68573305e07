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

/** Factories for tool parameters (`Param.string("city", "City name")`); `required` defaults to true. */
export const Param = {
  /** A string parameter. */
  string: (name: string, description?: string, options?: ParamOptions): Param =>
    make("string", name, description, options),
  /** An integer parameter. */
  integer: (name: string, description?: string, options?: ParamOptions): Param =>
    make("integer", name, description, options),
  /** A floating-point parameter (JSON Schema `number`). */
  double: (name: string, description?: string, options?: ParamOptions): Param =>
    make("number", name, description, options),
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
