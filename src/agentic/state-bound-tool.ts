import { DelegatingTool } from "../tool/abstract-tool.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolDefinition } from "../tool/tool-definition.js";
import { ToolResult } from "../tool/tool-result.js";

/** The current state of one state machine run, and how to name states. */
export interface StateHolder<S> {
  current: S;
  nameOf(state: S): string;
}

function described(delegate: Tool, note: string): ToolDefinition {
  const own = delegate.definition;
  return Object.freeze({ ...own, description: `${own.description}\n\n${note}` });
}

/** The result of a tool that moved the machine on, telling the model the new state. */
function withNewState(result: ToolResult, stateName: string): ToolResult {
  const content = `${result.content}\n\n[Current state: ${stateName}]`;
  return result.kind === "artifact"
    ? ToolResult.withArtifact(content, result.artifact)
    : ToolResult.text(content);
}

/**
 * A state machine tool available in one state: called in another it answers
 * where it is available; called in its state it runs and, unless the result
 * is an error, moves the machine to its transition's state.
 */
export class StateBoundTool<S> extends DelegatingTool {
  private readonly bound: ToolDefinition;

  constructor(
    delegate: Tool,
    private readonly state: S,
    private readonly transition: S | undefined,
    private readonly holder: StateHolder<S>,
  ) {
    super(delegate);
    const transitionNote = transition === undefined ? "" : ` [Transitions to: ${holder.nameOf(transition)}]`;
    this.bound = described(delegate, `[Available in state: ${holder.nameOf(state)}]${transitionNote}`);
  }

  override get definition(): ToolDefinition {
    return this.bound;
  }

  override async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    const { holder } = this;
    if (holder.current !== this.state) {
      return ToolResult.text(
        `This tool is not available in the current state (${holder.nameOf(holder.current)}). It is only available in state: ${holder.nameOf(this.state)}`,
      );
    }
    const result = await this.delegate.call(input, context, options);
    if (this.transition === undefined || result.kind === "error") return result;
    holder.current = this.transition;
    return withNewState(result, holder.nameOf(this.transition));
  }
}

/** A state machine tool available in every state. */
export class GlobalStateTool extends DelegatingTool {
  private readonly global: ToolDefinition;

  constructor(delegate: Tool) {
    super(delegate);
    this.global = described(delegate, "[Available in all states]");
  }

  override get definition(): ToolDefinition {
    return this.global;
  }
}
