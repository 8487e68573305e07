import type { McpServerPrompt } from "../mcp/serve/served-prompts.js";
import type { McpServerResource } from "../mcp/serve/served-resources.js";
import { Tool } from "../tool/tool.js";

/** The URI of the resource holding the last result of the served agent tool `toolName`. */
export function lastResultUri(toolName: string): string {
  return `embabel://agents/${toolName}/last-result`;
}

/** What `mcp-serve` serves beside its agent tools. */
export interface ServedAgentExtras {
  /** The agent tools, each keeping its last result for its resource. */
  readonly tools: Tool[];
  /** One prompt per agent tool: its description, and how to call it. */
  readonly prompts: McpServerPrompt[];
  /** One resource per agent tool: the text of its last successful result. */
  readonly resources: McpServerResource[];
}

/**
 * For `mcp-serve`: each served agent's description as a prompt (named like
 * its tool, with an optional `input`) and its last result as a resource
 * (`embabel://agents/<tool>/last-result`, kept in memory for the server's life).
 */
export function servedAgentExtras(agentTools: readonly Tool[]): ServedAgentExtras {
  const lastResults = new Map<string, string>();
  const tools = agentTools.map((tool) => {
    const { name, description, inputSchema } = tool.definition;
    return Tool.of(name, description, inputSchema, tool.metadata, async (input, context, options) => {
      // Not gated here: this wrapper keeps the agent tool's schema and metadata, and the MCP server gates the call to it.
      const result = await tool.call(input, context, options);
      if (result.kind !== "error") lastResults.set(name, result.content);
      return result;
    });
  });
  const prompts = agentTools.map(
    ({ definition: { name, description } }): McpServerPrompt => ({
      name,
      description,
      arguments: [{ name: "input", description: "What to give the agent (text or JSON)", required: false }],
      get: ({ input }) =>
        `${description}\n\nUse the tool '${name}' for this${input ? ` with this input: ${input}` : ""}.`,
    }),
  );
  const resources = agentTools.map(
    ({ definition: { name } }): McpServerResource => ({
      uri: lastResultUri(name),
      name: `${name}: last result`,
      description: `The last result of the agent tool '${name}' served here (empty before its first run).`,
      mimeType: "text/plain",
      read: () => lastResults.get(name) ?? "",
    }),
  );
  return { tools, prompts, resources };
}
