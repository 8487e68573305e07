import { AbstractTool } from "./abstract-tool.js";
import { ToolCallContext } from "./tool-call-context.js";
import type { ToolDefinition } from "./tool-definition.js";
import type { ToolCallOptions } from "./tool-interface.js";
import type { ToolMetadata } from "./tool-metadata.js";
import type { ToolResult } from "./tool-result.js";

/** The logic of a programmatic tool: raw JSON input in, result out. */
export type ToolHandler = (
  input: string,
  context: ToolCallContext,
  options: ToolCallOptions,
) => ToolResult | Promise<ToolResult>;

const NO_OPTIONS: ToolCallOptions = Object.freeze({});

/** A tool whose behaviour is a handler function (`Tool.create`, `Tool.of`). */
export class FunctionTool extends AbstractTool {
  constructor(
    readonly definition: ToolDefinition,
    readonly metadata: ToolMetadata,
    private readonly handler: ToolHandler,
  ) {
    super();
  }

  call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = NO_OPTIONS,
  ): Promise<ToolResult> {
    // Not async: an async wrapper around the handler's promise costs a promise and two extra ticks per call.
    try {
      return Promise.resolve(this.handler(input, context, options));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
