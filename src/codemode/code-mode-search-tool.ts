import { ToolSearchIndex } from "../progressive/tool-search-index.js";
import { AbstractTool } from "../tool/abstract-tool.js";
import { InputSchema } from "../tool/input-schema.js";
import type { Tool } from "../tool/tool.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { toolsDeclaration } from "./tool-declarations.js";

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

/**
 * The search half of a code-mode catalogue: finds tools by what they do
 * (the same {@link ToolSearchIndex} as `UnfoldingTool.searchable`) and answers
 * with their TypeScript declarations, to be called from the code tool.
 */
export class CodeModeSearchTool extends AbstractTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  readonly index: ToolSearchIndex;

  constructor(name: string, codeToolName: string, tools: readonly Tool[]) {
    super();
    this.index = ToolSearchIndex.of(tools);
    this.definition = toolDefinition(
      name,
      `Find tools of a catalogue of ${tools.length} by describing the task; answers with their TypeScript declarations, to call from ${codeToolName} as tools.<name>(args).`,
      InputSchema.fromJsonSchema({
        type: "object",
        properties: {
          query: { type: "string", description: "What the tools should do, in a few words" },
          limit: {
            type: "integer",
            minimum: 1,
            maximum: MAX_LIMIT,
            default: DEFAULT_LIMIT,
            description: "How many tools to return",
          },
        },
        required: ["query"],
      }),
    );
  }

  async call(input: string): Promise<ToolResult> {
    let query: unknown;
    let limit: unknown;
    try {
      ({ query, limit } = JSON.parse(input) as { query?: unknown; limit?: unknown });
    } catch {
      // answered below
    }
    if (typeof query !== "string" || query.trim() === "")
      return ToolResult.error(`Call ${this.definition.name} with {"query": "<what the tools should do>"}.`);
    const count =
      typeof limit === "number" && Number.isInteger(limit)
        ? Math.min(MAX_LIMIT, Math.max(1, limit))
        : DEFAULT_LIMIT;
    const hits = this.index.search(query, count);
    if (hits.length === 0)
      return ToolResult.text(`No tools match '${query}'. Search again with other words.`);
    return ToolResult.text(toolsDeclaration(hits.map((hit) => hit.tool)));
  }
}
