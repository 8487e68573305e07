import type { ResumableState } from "../loop/resumable-state.js";
import type { ToolInjectionResult, ToolInjectionStrategy } from "../loop/tool-injection-strategy.js";
import { DelegatingTool } from "../tool/abstract-tool.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolDefinition } from "../tool/tool-definition.js";
import { ToolResult } from "../tool/tool-result.js";
import { ToolResultNote } from "../tool/tool-result-note.js";
import { Unfolding, type UnfoldingCall } from "../tool/unfolding.js";

/** The current state of one state machine run, and how to name states. */
export interface StateHolder<S> {
  current: S;
  nameOf(state: S): string;
  /** Whether `value` is one of the machine's states. */
  isState(value: unknown): value is S;
}

/**
 * Keeps a state machine run's current state while its loop waits for a
 * person, and puts it back when the loop resumes (an injection strategy that
 * never changes the tool list).
 */
export class StateMachineMemory<S> implements ToolInjectionStrategy, ResumableState {
  readonly resumeKey = "state-machine";

  constructor(private readonly holder: StateHolder<S>) {}

  captureState(): { readonly current: S } {
    return { current: this.holder.current };
  }

  restoreState(state: unknown): undefined {
    const current = (state as { current?: unknown } | null)?.current;
    if (this.holder.isState(current)) this.holder.current = current;
    return undefined;
  }

  evaluate(): ToolInjectionResult | undefined {
    return undefined;
  }
}

function described(delegate: Tool, note: string): ToolDefinition {
  const own = delegate.definition;
  return Object.freeze({ ...own, description: `${own.description}\n\n${note}` });
}

/** True when `content` is a JSON object or array (which a note appended to it would break). */
function isJson(content: string): boolean {
  const first = content.trimStart()[0];
  if (first !== "{" && first !== "[") return false;
  try {
    JSON.parse(content);
    return true;
  } catch {
    return false;
  }
}

/**
 * The result of a tool that moved the machine on, telling the model the new
 * state: after a text result; as a separate text part after a JSON one, which
 * stays valid JSON.
 */
function withNewState(result: ToolResult, stateName: string): ToolResult {
  const note = `[Current state: ${stateName}]`;
  const content = isJson(result.content) ? result.content : `${result.content}\n\n${note}`;
  const moved =
    result.kind === "artifact" ? ToolResult.withArtifact(content, result.artifact) : ToolResult.text(content);
  return content === result.content ? ToolResultNote.attach(moved, note) : moved;
}

/**
 * A state machine tool available in one state: called in another it answers
 * where it is available; called in its state it runs and, unless the result
 * is an error, moves the machine to its transition's state. A facade with a
 * transition that only unfolds stays put: the tools it unfolded carry the
 * transition, and the first of them that returns a non-error result moves
 * the machine (a shortcut call that ran an inner tool moves it at once).
 */
export class StateBoundTool<S> extends DelegatingTool {
  private readonly bound: ToolDefinition;
  private readonly children = new WeakMap<Tool, StateBoundTool<S>>();

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

  /**
   * What a call of the facade this tool wraps unfolded, with every tool it
   * offers (the guide under the facade's name included) bound to this tool's
   * state: an unfolding in DRAFT does not make a DRAFT-only facade's tools
   * usable in CONFIRMED. The same child is always bound by the same wrapper.
   */
  unfoldingFor(call: UnfoldingCall): Unfolding | undefined {
    return this.boundToState(Unfolding.ofCall(this.delegate, call));
  }

  /** What the facade this tool wraps had unfolded in a stopped loop, rebuilt for its resumption and bound to this tool's state. */
  restoredUnfolding(definition: ToolDefinition, offered: ReadonlySet<string>): Unfolding | undefined {
    const source = DelegatingTool.unwrap(this.delegate, Unfolding.isSource);
    return this.boundToState(source?.restoredUnfolding?.(definition, offered));
  }

  private boundToState(unfolding: Unfolding | undefined): Unfolding | undefined {
    if (!unfolding) return undefined;
    const bind = (tool: Tool): Tool => {
      let bound = this.children.get(tool);
      if (!bound) {
        // The facade's transition moves on with the inner tools (not the guide): the call that does the work moves the machine.
        const transition = tool === unfolding.guide ? undefined : this.transition;
        bound = new StateBoundTool(tool, this.state, transition, this.holder);
        this.children.set(tool, bound);
      }
      return bound;
    };
    return {
      ...unfolding,
      tools: unfolding.tools.map(bind),
      ...(unfolding.guide ? { guide: bind(unfolding.guide) } : {}),
    };
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
    // Not gated again: a decorator's call is the gated call itself (same definition, metadata and input, admitted by whichever route called it).
    const result = await this.delegate.call(input, context, options);
    if (this.transition === undefined || result.kind === "error") return result;
    // A facade that only unfolded has done no work yet: the inner call that completes it moves the machine.
    const unfolding = Unfolding.ofCall(this.delegate, { input, context, definition: this.bound }, result);
    if (unfolding !== undefined && unfolding.dispatched === undefined) return result;
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
