import type { JSONSchema7, LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import type { Tool } from "../tool/tool.js";
import type { ToolDefinition } from "../tool/tool-definition.js";
import type { ToolMetadata } from "../tool/tool-metadata.js";

interface Cached {
  readonly metadata: ToolMetadata;
  readonly definition: LanguageModelV3FunctionTool;
}

const cache = new WeakMap<ToolDefinition, Cached>();

/**
 * The provider definition of a tool (`type: "function"`, name, description,
 * JSON Schema, provider options from the tool's metadata), computed once per
 * definition object: a tool whose definition object changes is recomputed.
 */
export function providerToolDefinition(tool: Tool): LanguageModelV3FunctionTool {
  const { definition, metadata } = tool;
  const cached = cache.get(definition);
  if (cached && cached.metadata === metadata) return cached.definition;
  const providerOptions = metadata.providerMetadata;
  const computed: LanguageModelV3FunctionTool = {
    type: "function",
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema.jsonSchema as JSONSchema7,
  };
  for (const _ in providerOptions) {
    computed.providerOptions = providerOptions as LanguageModelV3FunctionTool["providerOptions"];
    break;
  }
  Object.freeze(computed);
  cache.set(definition, { metadata, definition: computed });
  return computed;
}
