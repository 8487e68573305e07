// A `tools/list` page read leniently (each tool is checked on its own), and
// the output-schema validators of the tools kept compiled.

import type { Client, Tool as McpToolInfo } from "@modelcontextprotocol/client";
import { z } from "zod";
import { mcpClientSdk } from "./load-mcp-sdk.js";
import { mcpErrorMessage } from "./mcp-error-message.js";
import { toolSchemaValidator } from "./tool-schema-validator.js";
import { skippedTool } from "./usable-mcp-tools.js";

/** A `tools/list` result whose tools are checked one by one afterwards ({@link usableMcpTools}). */
function buildLenientToolList() {
  return z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
}

let lenientToolList: ReturnType<typeof buildLenientToolList> | undefined;

/** {@link buildLenientToolList}, built on first use (at module level it would be code every bundle keeps). */
export function lenientToolListSchema(): ReturnType<typeof buildLenientToolList> {
  lenientToolList ??= buildLenientToolList();
  return lenientToolList;
}

/**
 * `tools` without those whose output schema can't be compiled (each skipped
 * with a warning). The others' validators are compiled now, once (see
 * {@link toolSchemaValidator}), and each call hands the SDK its tool, so
 * structured results are still checked.
 */
export function withCompilableOutputSchemas(server: string, tools: McpToolInfo[]): McpToolInfo[] {
  const validator = toolSchemaValidator(mcpClientSdk());
  return tools.filter((tool) => {
    if (tool.outputSchema === undefined) return true;
    try {
      validator.getValidator(tool.outputSchema);
      return true;
    } catch (error) {
      skippedTool(
        server,
        `tool '${tool.name}'`,
        `its output schema can't be compiled (${mcpErrorMessage(error)})`,
      );
      return false;
    }
  });
}

/** The SDK client's own SEP-2243 check of a listing (a private method of its `Client`: the rules live there). */
type XMcpHeaderCheck = { _excludeInvalidXMcpHeaderTools?: (result: { tools: McpToolInfo[] }) => void };

/**
 * `tools` without those whose `x-mcp-header` declarations break SEP-2243's
 * rules (a non-empty RFC 9110 token, on a string, integer or boolean property
 * reached through `properties` only, unique ignoring case), each skipped with
 * a warning: a 2026-07-28 client over HTTP must not call them. The SDK applies
 * it at 2026-07-28 over HTTP only; elsewhere `tools` come back as they are.
 */
export function withValidParamHeaders(client: Client, server: string, tools: McpToolInfo[]): McpToolInfo[] {
  const check = (client as unknown as XMcpHeaderCheck)._excludeInvalidXMcpHeaderTools?.bind(client);
  if (check === undefined) return tools;
  const result = { tools: [...tools] };
  check(result);
  if (result.tools.length === tools.length) return tools;
  const kept = new Set(result.tools);
  for (const tool of tools) {
    if (!kept.has(tool))
      skippedTool(server, `tool '${tool.name}'`, "its x-mcp-header declarations are invalid");
  }
  return result.tools;
}
