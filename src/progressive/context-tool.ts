import { AbstractTool } from "../tool/abstract-tool.js";
import { InputSchema } from "../tool/input-schema.js";
import { LoopMemo } from "../tool/loop-memo.js";
import type { ToolCallOptions } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { Unfolding } from "../tool/unfolding.js";
import type { UnfoldedChildren } from "./unfolded-children.js";
import {
  contextToolDescription,
  contextToolMessage,
  contextToolRepeatMessage,
} from "./unfolding-messages.js";

const SUFFIX = "_context";

/** `<facadeName>_context`, with the facade part shortened when the whole would exceed 64 characters. */
export function contextToolName(facadeName: string): string {
  const room = 64 - SUFFIX.length;
  return `${facadeName.length > room ? facadeName.slice(0, room) : facadeName}${SUFFIX}`;
}

/**
 * The `<name>_context` tool injected beside an unfolded facade's children: its
 * description keeps the parent's purpose, the child list and the usage notes;
 * its call lists every child with its description, then the notes. It answers
 * in full once per tool loop and briefly after that, so a model cannot loop
 * on it.
 */
export class ContextTool extends AbstractTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  private readonly memo = new LoopMemo();

  constructor(private readonly children: UnfoldedChildren) {
    super();
    Unfolding.markGenerated(this);
    this.definition = toolDefinition(
      contextToolName(children.facadeName),
      contextToolDescription(children.parentDescription, children.tools, children.notes),
      InputSchema.empty(),
    );
  }

  async call(_input: string, context?: ToolCallContext, _options?: ToolCallOptions): Promise<ToolResult> {
    const { facadeName, parentDescription, notes, tools } = this.children;
    return ToolResult.text(
      this.memo.firstTimeIn(context)
        ? contextToolMessage(parentDescription, tools, notes)
        : contextToolRepeatMessage(facadeName, tools),
    );
  }
}
