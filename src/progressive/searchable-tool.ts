import type { EmbeddingModelChoice } from "../llm/embedding-model-registry.js";
import { AbstractTool } from "../tool/abstract-tool.js";
import { InputSchema } from "../tool/input-schema.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import type { NestedTool, Unfolding, UnfoldingCall, UnfoldingSource } from "../tool/unfolding.js";
import { type ToolRanker, toolRanker } from "./tool-ranker.js";
import { ToolSearchIndex } from "./tool-search-index.js";
import { foundMessage, noMatchMessage, parseSearchInput } from "./tool-search-messages.js";
import { distinctTools } from "./tool-selection.js";
import { UnfoldingRecords } from "./unfolding-records.js";

/** Options of `UnfoldingTool.searchable`. */
export interface SearchableToolOptions {
  /** How many matches a search returns when the model gives no `limit`. @default 5 */
  readonly defaultLimit?: number;
  /** The largest `limit` the model may ask for. @default 20 */
  readonly maxLimit?: number;
  /**
   * `"auto"` ranks lexically (BM25), and fuses in vector similarity when the
   * call runs in an agent process whose platform has an embedding model;
   * `"lexical"` never embeds.
   * @default "auto"
   */
  readonly ranking?: "auto" | "lexical";
  /** Which of the platform's embedding models to use (a name or a role). @default the `default` role */
  readonly embeddingModel?: EmbeddingModelChoice;
  /** A file that keeps tool embeddings between runs, keyed by model and content hash. @default none (kept in memory) */
  readonly embeddingCacheFile?: string;
  /**
   * The largest share of a search's results one MCP server may fill unless
   * the query names it, rounded up (0.4: 2 of 5); its further matches follow
   * the other servers'. 1 turns the cap off.
   * @default 0.4
   */
  readonly maxServerShare?: number;
}

const NO_OPTIONS: ToolCallOptions = Object.freeze({});
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

function searchSchema(maxLimit: number, defaultLimit: number): InputSchema {
  return InputSchema.fromJsonSchema({
    type: "object",
    properties: {
      query: {
        type: "string",
        description: "What you want to do, in your own words (for example: send a message to a channel)",
      },
      limit: {
        type: "integer",
        description: `How many tools to return (1 to ${maxLimit}; default ${defaultLimit})`,
        minimum: 1,
        maximum: maxLimit,
      },
    },
    required: ["query"],
  });
}

/**
 * A facade the LLM sees as one tool taking a `query`: a call answers with the
 * best matching tools' names and descriptions and appends exactly those tools
 * to the tool list (the facade stays, so the model can search again; a tool
 * already offered is not added twice). The catalogue may be any tools: MCP
 * tools, tool objects' tools, nested facades (a found facade unfolds as
 * usual when called). Made with `UnfoldingTool.searchable`.
 */
export class SearchableTool extends AbstractTool implements NestedTool, UnfoldingSource {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  /** The search index over the catalogue (built once). */
  readonly index: ToolSearchIndex;
  private readonly records = new UnfoldingRecords();
  private readonly ranker: ToolRanker;
  private readonly defaultLimit: number;
  private readonly maxLimit: number;

  constructor(
    name: string,
    description: string,
    tools: readonly Tool[],
    options: SearchableToolOptions = {},
  ) {
    super();
    this.maxLimit = Math.max(1, Math.floor(options.maxLimit ?? MAX_LIMIT));
    this.defaultLimit = Math.min(
      this.maxLimit,
      Math.max(1, Math.floor(options.defaultLimit ?? DEFAULT_LIMIT)),
    );
    this.definition = toolDefinition(name, description, searchSchema(this.maxLimit, this.defaultLimit));
    this.index = ToolSearchIndex.of(
      distinctTools(tools, name),
      options.maxServerShare === undefined ? {} : { maxServerShare: options.maxServerShare },
    );
    this.ranker = toolRanker(this.index, options);
  }

  /** The catalogue: every tool a search may find. */
  get innerTools(): readonly Tool[] {
    return this.index.tools;
  }

  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = NO_OPTIONS,
  ): Promise<ToolResult> {
    const parsed = parseSearchInput(input, this.definition.name, this.defaultLimit, this.maxLimit);
    if (typeof parsed === "string") {
      this.records.record(context, input, undefined);
      return ToolResult.error(parsed);
    }
    const found = await this.ranker(parsed.query, parsed.limit, options.signal);
    if (found.length === 0) {
      this.records.record(context, input, undefined);
      return ToolResult.text(noMatchMessage(this.definition.name, parsed.query));
    }
    const unfolding: Unfolding = { tools: found, guide: this, exclusive: false };
    this.records.record(context, input, () => unfolding);
    return ToolResult.text(foundMessage(parsed.query, found));
  }

  /** What this facade's latest call with the input in the call's loop found. */
  unfoldingFor(call: UnfoldingCall): Unfolding | undefined {
    return this.records.find(call);
  }

  /** The found tools a stopped loop offered (by name among `offered`), for its resumption; `undefined` when it offered none. */
  restoredUnfolding(_definition: ToolDefinition, offered: ReadonlySet<string>): Unfolding | undefined {
    const found = this.index.tools.filter((tool) => offered.has(tool.definition.name));
    return found.length === 0 ? undefined : { tools: found, exclusive: false };
  }
}
