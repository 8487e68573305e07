import { ToolControlFlowSignal } from "../errors/tool-control-flow-signal.js";
import { AbstractTool } from "../tool/abstract-tool.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { type NestedTool, Unfolding, type UnfoldingCall, type UnfoldingSource } from "../tool/unfolding.js";
import { findShortcut, runShortcut } from "./shortcut-dispatch.js";
import type { UnfoldedChildren } from "./unfolded-children.js";
import { guideMessage, unfoldedMessage } from "./unfolding-messages.js";
import { UnfoldingRecords } from "./unfolding-records.js";

/** Selects tools again from a later call's input (selectable and category facades). */
export type Reselect = (
  input: string,
  context: ToolCallContext,
  options: ToolCallOptions,
) => Promise<readonly Tool[]>;

const NO_OPTIONS: ToolCallOptions = Object.freeze({});

/**
 * Takes an unfolded facade's place in the tool list, under the facade's exact
 * definition (so earlier definitions stay byte-identical). A later call of the
 * facade's name never fails: input naming a child is dispatched to it; for
 * selecting facades, input selecting tools not offered yet unfolds those too;
 * anything else is answered with the list of children and the usage notes.
 */
export class GuideTool extends AbstractTool implements NestedTool, UnfoldingSource {
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  private readonly records = new UnfoldingRecords();

  constructor(
    readonly definition: ToolDefinition,
    private readonly children: UnfoldedChildren,
    private readonly reselect?: Reselect,
  ) {
    super();
    Unfolding.markGenerated(this);
  }

  /** The children offered so far. */
  get innerTools(): readonly Tool[] {
    return this.children.tools;
  }

  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = NO_OPTIONS,
  ): Promise<ToolResult> {
    const shortcut = findShortcut(input, this.children.tools);
    if (shortcut) {
      const via = shortcut.tool;
      const { result, input: ran } = await runShortcut(shortcut, context, options);
      const nested = Unfolding.ofCall(via, { input: ran, context, definition: via.definition }, result);
      // A child facade unfolded: offer its tools, keeping this guide in place.
      if (nested) this.record(context, input, { ...nested, guide: this });
      // A returnDirect child ends the loop as if it had been called by name.
      else if (via.metadata.returnDirect)
        this.record(context, input, { tools: [], guide: this, exclusive: false, returnDirect: true });
      else this.record(context, input, undefined);
      return result;
    }
    const fresh = this.reselect
      ? this.children.addNew(await this.selectQuietly(input, context, options))
      : [];
    if (fresh.length > 0) {
      this.record(context, input, { tools: fresh, guide: this, exclusive: false });
      return ToolResult.text(unfoldedMessage(fresh, this.children.notes));
    }
    this.record(context, input, undefined);
    return ToolResult.text(guideMessage(this.children.tools, this.children.notes));
  }

  /** What this guide's latest call with the input in the call's loop unfolded. */
  unfoldingFor(call: UnfoldingCall): Unfolding | undefined {
    return this.records.find(call);
  }

  private record(context: ToolCallContext, input: string, unfolding: Unfolding | undefined): void {
    this.records.record(context, input, unfolding && (() => unfolding));
  }

  private async selectQuietly(
    input: string,
    context: ToolCallContext,
    options: ToolCallOptions,
  ): Promise<readonly Tool[]> {
    try {
      return (await this.reselect?.(input, context, options)) ?? [];
    } catch (error) {
      if (ToolControlFlowSignal.isInstance(error)) throw error;
      return [];
    }
  }
}
