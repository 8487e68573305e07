import { AwaitingResponse } from "../errors/awaiting-response.js";
import { gateToolCall } from "../loop/tool-gate.js";
import { AbstractTool } from "../tool/abstract-tool.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import type { TypeToken } from "../tool/type-token.js";
import type { DomainToolTracker } from "./domain-tool-tracker.js";

/** Runs `tool` through the approval gate under the placeholder's call key; a call that must wait throws. */
async function runGated(
  tool: Tool,
  toolName: string,
  input: string,
  context: ToolCallContext,
  options: ToolCallOptions,
): Promise<ToolResult> {
  const outcome = await gateToolCall(
    { tool, toolName, input, callKey: `${options.callKey ?? "direct"}/${toolName}@bound` },
    { context, callOptions: options },
  );
  switch (outcome.kind) {
    case "ran":
      return outcome.result;
    case "refused":
      return ToolResult.error(outcome.message);
    case "pending":
      throw new AwaitingResponse([outcome.request]);
  }
}

/**
 * Stands for one `@llmTool` method of a registered type from the start of an
 * interaction. Until an instance is bound it answers that one must be
 * retrieved first; then it calls the bound instance's method, through the
 * approval gate when that method's approval is not the one the placeholder
 * was admitted under (so a person is asked rather than the call refused).
 */
export class DomainToolPlaceholder extends AbstractTool {
  readonly definition: ToolDefinition;

  constructor(
    /** The method's tool, as declared by the type (its name, description and input schema). */
    private readonly method: { readonly definition: ToolDefinition; readonly metadata: ToolMetadata },
    private readonly type: TypeToken,
    private readonly tracker: DomainToolTracker,
  ) {
    super();
    const { name, description, inputSchema, metadata } = method.definition;
    this.definition = toolDefinition(
      name,
      `${description}\n\nNote: This tool requires a ${type.name} instance to be retrieved first.`,
      inputSchema,
      metadata,
    );
  }

  get metadata(): ToolMetadata {
    return this.method.metadata ?? ToolMetadata.DEFAULT;
  }

  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    const instance = this.tracker.instanceOf(this.type);
    if (!instance) {
      return ToolResult.text(
        `This tool is not yet available. You must first retrieve a single ${this.type.name} instance.`,
      );
    }
    const name = this.definition.name;
    const tool = this.tracker.toolsOf(instance).find((candidate) => candidate.definition.name === name);
    if (!tool) return ToolResult.error(`Tool '${name}' not found on ${this.type.name}`);
    // The route that called this placeholder admitted it under the placeholder's own approval, which is the
    // bound method's when it is the registered type's: that grant lets the method run, asked once.
    if (tool.metadata.approval !== undefined && tool.metadata.approval === this.metadata.approval)
      return tool.call(input, context, options);
    // Another policy (a subclass's override, say): the bound method passes the gate on its own terms.
    return runGated(tool, name, input, context, options ?? {});
  }
}
