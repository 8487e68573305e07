import type { McpServerError } from "../errors/mcp-server-error.js";
import { AbstractTool } from "../tool/abstract-tool.js";
import { InputSchema, type JsonSchema } from "../tool/input-schema.js";
import type { ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { NAME_ON_CLASH_KEY } from "../tool/tool-name-clashes.js";
import { ToolResult } from "../tool/tool-result.js";
import type { CallToolResult, McpCallOptions, McpClient, McpToolInfo } from "./mcp-client.js";
import { toolResultOf } from "./mcp-tool-result.js";
import {
  isPureMetaConverter,
  mcpMetaOf,
  narrowedMetaConverter,
  ToolCallContextMcpMetaConverter,
} from "./tool-call-context-mcp-meta-converter.js";

const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const NO_OPTIONS: McpCallOptions = Object.freeze({});

function serverErrorResult(error: McpServerError): ToolResult {
  return ToolResult.error(error.message, error);
}

/** The request's options, with no object made when there is neither `_meta` nor a signal. */
function callOptions(
  meta: Readonly<Record<string, unknown>> | undefined,
  signal: AbortSignal | undefined,
): McpCallOptions {
  if (meta === undefined) return signal === undefined ? NO_OPTIONS : { signal };
  return signal === undefined ? { meta } : { meta, signal };
}

/** A server's tool name as one every provider accepts (`files.read` → `files_read`), case kept. */
export function providerToolName(name: string): string {
  if (VALID_NAME.test(name)) return name;
  const normalised = name.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 64);
  return normalised.length > 0 ? normalised : "mcp_tool";
}

const SERVER_PART_MAX = 24;

/**
 * The name an MCP tool is offered under when another tool already has its
 * name: `<server>_<tool>`, the server's name made provider-safe (runs of other
 * characters become `_`) and cut to 24 characters, the whole cut to 64
 * (`my files` and `read` → `my_files_read`).
 */
export function serverQualifiedToolName(server: string, tool: string): string {
  const serverPart =
    server
      .replace(/[^a-zA-Z0-9_-]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, SERVER_PART_MAX) || "mcp";
  return `${serverPart}_${providerToolName(tool)}`.slice(0, 64);
}

/** Options of {@link McpTool}. */
export interface McpToolOptions {
  /** Turns the call's context into `_meta` (then narrowed by the server's `context` rule, if it has one). @default ToolCallContextMcpMetaConverter.passThrough() */
  readonly metaConverter?: ToolCallContextMcpMetaConverter;
  /** The name the LLM sees. @default the server's name, normalised for providers */
  readonly name?: string;
}

/**
 * A tool of an MCP server as a {@link Tool}: the server's JSON Schema as-is,
 * a name every provider accepts (calls still use the server's name; when
 * another tool has that name too, it is offered as `<server>_<tool>`, see
 * `serverQualifiedToolName`), the
 * call's context sent as `_meta`. Failures the server or the connection causes
 * (a crash, a timeout) are answered in-band as error results naming the server.
 */
export class McpTool extends AbstractTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  /** The tool's name on the server. */
  readonly serverToolName: string;
  private readonly metaConverter: ToolCallContextMcpMetaConverter;
  private readonly metaReusable: boolean;
  /** The last context seen with a reusable converter, and its `_meta`. */
  private metaContext: ToolCallContext | undefined;
  private meta: Readonly<Record<string, unknown>> | undefined;

  constructor(
    /** The server the tool lives on. */
    readonly client: McpClient,
    info: McpToolInfo,
    options: McpToolOptions = {},
  ) {
    super();
    this.serverToolName = info.name;
    const converter = options.metaConverter ?? ToolCallContextMcpMetaConverter.passThrough();
    const rule = client.config.context;
    this.metaConverter = rule ? narrowedMetaConverter(converter, rule) : converter;
    this.metaReusable = isPureMetaConverter(this.metaConverter);
    this.definition = toolDefinition(
      options.name ?? providerToolName(info.name),
      info.description ?? "",
      InputSchema.fromJsonSchema((info.inputSchema ?? {}) as JsonSchema),
      {
        mcpServer: client.name,
        mcpToolName: info.name,
        [NAME_ON_CLASH_KEY]: Object.freeze({
          name: serverQualifiedToolName(client.name, info.name),
          origin: `MCP server '${client.name}'`,
        }),
      },
    );
  }

  call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    let args: unknown;
    try {
      args = JSON.parse(input);
    } catch (error) {
      if (input.trim().length > 0) {
        return Promise.resolve(
          ToolResult.error(
            `Invalid JSON arguments for tool '${this.definition.name}': ${(error as Error).message}`,
          ),
        );
      }
      args = {};
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return Promise.resolve(
        ToolResult.error(`The arguments of tool '${this.definition.name}' must be a JSON object.`),
      );
    }
    const meta = context === this.metaContext ? this.meta : this.metaOf(context);
    const signal = options?.signal;
    return this.client.callToolThen(
      this.serverToolName,
      args as Record<string, unknown>,
      meta === undefined && signal === undefined ? NO_OPTIONS : callOptions(meta, signal),
      this.resultOf,
      serverErrorResult,
    );
  }

  /**
   * The `_meta` for a context other than the last one. A loop passes one
   * context to all its calls, so with a converter of the factories (a pure
   * function) it is worked out on the first call and reused while the context
   * stays the same; a converter of the user's is asked every time.
   */
  private metaOf(context: ToolCallContext): Readonly<Record<string, unknown>> | undefined {
    const meta = mcpMetaOf(context, this.metaConverter);
    if (this.metaReusable) {
      this.metaContext = context;
      this.meta = meta && Object.freeze(meta);
    }
    return meta;
  }

  /** The server's result as the LLM reads it (made once per tool, so a call allocates no closure for it). */
  private readonly resultOf = (result: CallToolResult): ToolResult => toolResultOf(result, this);

  override toString(): string {
    return `McpTool(${this.client.name}/${this.serverToolName})`;
  }
}
