// A `tools/list` page read leniently (each tool is checked on its own), and
// the SDK client's output-schema validators filled for the tools kept.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { mcpErrorMessage } from "./mcp-error-message.js";
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

/** The SDK client's own cache of output-schema validators, which its `listTools` fills. */
type ToolMetadataCache = { cacheToolMetadata?: (tools: readonly McpToolInfo[]) => void };

/**
 * `tools` without those whose output schema can't be compiled (each skipped
 * with a warning), and the SDK client's validators of the others cached, as
 * its own `listTools` does, so structured results are still checked.
 */
export function withCompilableOutputSchemas(
  client: Client,
  server: string,
  tools: McpToolInfo[],
): McpToolInfo[] {
  const cache = (client as unknown as ToolMetadataCache).cacheToolMetadata?.bind(client);
  if (cache === undefined) return tools;
  const usable = tools.filter((tool) => {
    if (tool.outputSchema === undefined) return true;
    try {
      cache([tool]);
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
  cache(usable);
  return usable;
}
