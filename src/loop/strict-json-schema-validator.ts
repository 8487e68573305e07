import { createRequire } from "node:module";
import type { JsonSchema } from "../tool/input-schema.js";
import { type JsonSchemaValidator, jsonSchemaValidator } from "./json-schema-validator.js";

/** The part of Ajv this module uses. */
interface AjvInstance {
  compile(schema: object): AjvValidate;
}
interface AjvValidate {
  (value: unknown): boolean;
  errors?:
    | readonly { readonly instancePath: string; readonly message?: string; readonly params?: object }[]
    | null;
}

let ajv: AjvInstance | undefined;

/** Ajv (draft 2020-12, every error, formats), loaded on first use: importing the library never loads it. */
function loadAjv(): AjvInstance {
  if (ajv !== undefined) return ajv;
  // createRequire, not import: a synchronous, lazy load that bundlers leave out unless it is used.
  const require = createRequire(import.meta.url);
  const Ajv2020 = (require("ajv/dist/2020") as { default: new (options: object) => AjvInstance }).default;
  const addFormats = (require("ajv-formats") as { default: (ajv: AjvInstance) => void }).default;
  const instance = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  addFormats(instance);
  ajv = instance;
  return instance;
}

const compiled = new WeakMap<object, JsonSchemaValidator>();

/**
 * A complete JSON Schema validator (Ajv: `maxLength`, `maximum`,
 * `exclusiveMinimum`, `pattern`, formats, `$ref`, combinators…) for answers
 * people and peers send: edited approval arguments, form values. Each problem
 * names the field (`cents: must be <= 5000`). Compiled once per schema; a
 * schema Ajv can't compile is checked with the loop's subset validator.
 */
export function strictJsonSchemaValidator(schema: JsonSchema): JsonSchemaValidator {
  let validator = compiled.get(schema);
  if (validator === undefined) {
    validator = compile(schema);
    compiled.set(schema, validator);
  }
  return validator;
}

function compile(schema: JsonSchema): JsonSchemaValidator {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  let validate: AjvValidate;
  try {
    validate = loadAjv().compile(rest);
  } catch {
    return jsonSchemaValidator(schema);
  }
  return (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => {
      const field =
        error.instancePath === "" ? "(the value)" : error.instancePath.slice(1).replaceAll("/", ".");
      const extra = (error.params as { additionalProperty?: string } | undefined)?.additionalProperty;
      return `${field}: ${error.message ?? "is invalid"}${extra === undefined ? "" : ` '${extra}'`}`;
    });
  };
}
