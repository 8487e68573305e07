// What of a tool the lexical search reads: its search document, field by
// field (name, description, parameters, a facade's children, the name's
// acronyms, its MCP server), and the text an embedding model sees.
import type { Tool } from "../tool/tool.js";
import { isNestedTool } from "../tool/unfolding.js";
import { acronymTerms, appendIndexTerms } from "./search-terms.js";
import { serverOf } from "./tool-search-sources.js";

/** The fields of a tool's search document, in this order. */
export const FIELDS = [
  "name",
  "description",
  "parameterNames",
  "parameterDescriptions",
  "children",
  "acronyms",
  "server",
] as const;

/** How many fields a search document has. */
export const FIELD_COUNT = FIELDS.length;

function propertiesOf(tool: Tool): Readonly<Record<string, { description?: unknown }>> {
  const properties = tool.definition.inputSchema.jsonSchema.properties;
  return typeof properties === "object" && properties !== null
    ? (properties as Record<string, { description?: unknown }>)
    : {};
}

/**
 * Writes a tool's search document into reused buffers: the terms of all its
 * fields (stems, their surface forms, the name's acronyms) into `terms`, where
 * each field's terms end into `ends` and each field's length in stems into
 * `lengths`.
 */
export function writeDocument(tool: Tool, terms: string[], ends: Uint32Array, lengths: Uint32Array): void {
  const { name, description } = tool.definition;
  const properties = propertiesOf(tool);
  terms.length = 0;
  FIELDS.forEach((field, index) => {
    let length = 0;
    if (field === "name") length = appendIndexTerms(name, terms);
    else if (field === "description") length = appendIndexTerms(description, terms);
    else if (field === "parameterNames") {
      for (const parameter in properties) length += appendIndexTerms(parameter, terms);
    } else if (field === "parameterDescriptions") {
      for (const parameter in properties) {
        const text = properties[parameter]?.description;
        if (typeof text === "string") length += appendIndexTerms(text, terms);
      }
    } else if (field === "children") {
      if (isNestedTool(tool)) {
        for (const child of tool.innerTools) {
          length += appendIndexTerms(child.definition.name, terms);
          length += appendIndexTerms(child.definition.description, terms);
        }
      }
    } else if (field === "acronyms") {
      for (const acronym of acronymTerms(name)) terms.push(acronym);
      length = terms.length - (ends[index - 1] as number);
    } else {
      const server = serverOf(tool);
      if (server !== undefined) length = appendIndexTerms(server, terms);
    }
    ends[index] = terms.length;
    lengths[index] = length;
  });
}

/** The text an embedding model sees for `tool`: name, description, parameter names and its MCP server, if any. */
export function toolDocumentText(tool: Tool): string {
  const { name, description } = tool.definition;
  const parameters = Object.keys(propertiesOf(tool));
  const server = serverOf(tool);
  return `${name}: ${description}${parameters.length > 0 ? ` (parameters: ${parameters.join(", ")})` : ""}${server === undefined ? "" : ` (MCP server: ${server})`}`;
}
