// The JSON Schema validator an MCP client checks structured tool results with:
// the SDK's (ajv, JSON Schema 2020-12 unless a schema says otherwise), with
// each schema compiled once.

import type { jsonSchemaValidator } from "@modelcontextprotocol/client";
import type { McpClientSdk } from "./load-mcp-sdk.js";

type JsonSchema = Parameters<jsonSchemaValidator["getValidator"]>[0];
type Validate = ReturnType<jsonSchemaValidator["getValidator"]>;

let shared: jsonSchemaValidator | undefined;

/**
 * The SDK's validator behind a cache keyed by the schema object: `McpClient`
 * hands each call the tool description it listed (so the SDK checks the
 * result against its output schema), and a schema is compiled the first time
 * only. One for the process: the cache holds schemas weakly.
 */
export function toolSchemaValidator(sdk: McpClientSdk): jsonSchemaValidator {
  if (shared) return shared;
  const base = new sdk.AjvJsonSchemaValidator();
  const compiled = new WeakMap<JsonSchema, Validate>();
  shared = {
    getValidator(schema) {
      let validate = compiled.get(schema);
      if (!validate) {
        validate = base.getValidator(schema);
        compiled.set(schema, validate);
      }
      return validate as never;
    },
  };
  return shared;
}
