import { ConfigurationError } from "../errors/configuration-error.js";
import { type BlackboardUpdater, ReplanRequested } from "../errors/replan-requested.js";
import { DelegatingTool } from "./abstract-tool.js";
import { AmbientProcess } from "./ambient-process.js";
import { ToolCallContext } from "./tool-call-context.js";
import type { ToolDefinition } from "./tool-definition.js";
import type { Tool, ToolCallOptions } from "./tool-interface.js";
import type { ToolResult } from "./tool-result.js";
import { type TypeLike, type TypeOf, TypeToken } from "./type-token.js";

/** Receives the content of the result (an error's message) and updates the blackboard before the replan. */
export type ReplanContentUpdater = (content: string, blackboard: { add(value: unknown): unknown }) => void;

/**
 * Runs its delegate, then always asks the agent process to replan with
 * `reason`. Before the planner runs, `updater` receives the result's content
 * (an error's message); by default that text is added to the blackboard.
 */
export class ReplanningTool extends DelegatingTool {
  constructor(
    delegate: Tool,
    /** Why the tool asks to replan (the process event carries it). */
    readonly reason: string,
    private readonly updater: ReplanContentUpdater = (content, blackboard) => {
      blackboard.add(content);
    },
  ) {
    super(delegate);
  }

  override async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    // Not gated again: a decorator's call is the gated call itself (same definition, metadata and input, admitted by whichever route called it).
    const result = await this.delegate.call(input, context, options);
    throw new ReplanRequested(this.reason, (blackboard) => this.updater(result.content, blackboard));
  }
}

/** What a {@link ConditionalReplanningTool}'s decider sees about the call that just ran. */
export interface ReplanContext {
  /** The delegate's result. */
  readonly result: ToolResult;
  /** The agent process the call ran in. */
  readonly agentProcess: AmbientProcess;
  /** The tool's definition (name, description). */
  readonly tool: ToolDefinition;
  /** The result's content (an error's message). */
  readonly resultContent: string;
  /** The result's artifact; `undefined` unless the result carries one. */
  readonly artifact: unknown;
}

/** A decision to replan: why, and how to update the blackboard first. */
export interface ReplanDecision {
  /** Why the process replans. */
  readonly reason: string;
  /** Updates the blackboard before the planner runs. @default no change */
  readonly blackboardUpdater?: BlackboardUpdater;
}

/** Decides from a call's outcome whether the process should replan; `undefined` returns the result normally. */
export type ReplanDecider = (context: ReplanContext) => ReplanDecision | undefined;

/**
 * Runs its delegate, then asks `decider` whether the agent process should
 * replan; a decision ends the tool loop with a replan request carrying its
 * reason and blackboard updater, no decision returns the result unchanged.
 * The call must run inside an agent process.
 */
export class ConditionalReplanningTool extends DelegatingTool {
  constructor(
    delegate: Tool,
    private readonly decider: ReplanDecider,
  ) {
    super(delegate);
  }

  override async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    // Not gated again: a decorator's call is the gated call itself (same definition, metadata and input, admitted by whichever route called it).
    const result = await this.delegate.call(input, context, options);
    const agentProcess = AmbientProcess.current();
    if (!agentProcess) {
      // The reference's words, which the model sees after `failed with exception: `.
      throw new ConfigurationError("No AgentProcess available for ConditionalReplanningTool");
    }
    const decision = this.decider({
      result,
      agentProcess,
      tool: this.definition,
      resultContent: result.content,
      // Stryker disable next-line ConditionalExpression: a text or error result has no artifact property, so it reads undefined either way
      artifact: result.kind === "artifact" ? result.artifact : undefined,
    });
    if (!decision) return result;
    throw new ReplanRequested(decision.reason, decision.blackboardUpdater);
  }
}

/** The artifact of `context` when it is of `type` (any value when no type is given). */
function artifactOf<T>(context: ReplanContext, type: TypeToken<T> | undefined): T | undefined {
  const { artifact } = context;
  // Stryker disable next-line ConditionalExpression: a shortcut; an undefined artifact is returned as undefined below too
  if (artifact === undefined) return undefined;
  if (artifact === null) return undefined;
  if (type && !type.is(artifact)) return undefined;
  return artifact as T;
}

/** `(tool, fn)` or `(tool, type, fn)`: the type token (if any) and the function. */
function typedArguments<F>(typeOrFn: TypeLike | F, fn: F | undefined): [TypeToken | undefined, F] {
  return fn === undefined ? [undefined, typeOrFn as F] : [TypeToken.of(typeOrFn as TypeLike), fn];
}

/** A tool that always replans after running, with reason `<name> replans`; its artifact (if any) is added to the blackboard. */
export function replanAlways(tool: Tool): ConditionalReplanningTool {
  const reason = `${tool.definition.name} replans`;
  return new ConditionalReplanningTool(tool, (context) => ({
    reason,
    blackboardUpdater: (blackboard) => {
      if (context.artifact !== undefined && context.artifact !== null) blackboard.add(context.artifact);
    },
  }));
}

/**
 * A tool that replans (reason `<name> replans based on result`) when its
 * artifact, of `type` if given, satisfies `predicate`; the artifact is added to
 * the blackboard. No artifact, another type or a false predicate: the result
 * is returned normally.
 */
export function replanWhen<L extends TypeLike>(
  tool: Tool,
  type: L,
  predicate: (artifact: TypeOf<L>) => boolean,
): ConditionalReplanningTool;
export function replanWhen(tool: Tool, predicate: (artifact: unknown) => boolean): ConditionalReplanningTool;
export function replanWhen(
  tool: Tool,
  typeOrPredicate: TypeLike | ((artifact: unknown) => boolean),
  maybePredicate?: (artifact: unknown) => boolean,
): ConditionalReplanningTool {
  // replanAndAdd where the value added is the artifact itself, when the predicate accepts it.
  const [type, predicate] = typedArguments(typeOrPredicate, maybePredicate);
  const addAccepted = (artifact: unknown) => (predicate(artifact) ? artifact : undefined);
  return type === undefined ? replanAndAdd(tool, addAccepted) : replanAndAdd(tool, type, addAccepted);
}

/**
 * A tool that replans (reason `<name> replans based on result`) when
 * `compute(artifact)` returns a value, which is added to the blackboard;
 * `undefined` or `null` (or no artifact of `type`) returns the result normally.
 */
export function replanAndAdd<L extends TypeLike>(
  tool: Tool,
  type: L,
  compute: (artifact: TypeOf<L>) => unknown,
): ConditionalReplanningTool;
export function replanAndAdd(tool: Tool, compute: (artifact: unknown) => unknown): ConditionalReplanningTool;
export function replanAndAdd(
  tool: Tool,
  typeOrCompute: TypeLike | ((artifact: unknown) => unknown),
  maybeCompute?: (artifact: unknown) => unknown,
): ConditionalReplanningTool {
  const [type, compute] = typedArguments(typeOrCompute, maybeCompute);
  const reason = `${tool.definition.name} replans based on result`;
  return new ConditionalReplanningTool(tool, (context) => {
    const artifact = artifactOf(context, type);
    if (artifact === undefined) return undefined;
    const value = compute(artifact);
    if (value === undefined || value === null) return undefined;
    return { reason, blackboardUpdater: (blackboard) => void blackboard.add(value) };
  });
}

/** Decides from a tool's artifact (and the call's context) whether to replan. */
export type ArtifactReplanDecider<T> = (artifact: T, context: ReplanContext) => ReplanDecision | undefined;

/**
 * A tool whose artifact (of `type` if given) is passed to `decider`; a
 * decision replans, first adding the artifact to the blackboard and then
 * running the decision's own updater.
 */
export function conditionalReplan<L extends TypeLike>(
  tool: Tool,
  type: L,
  decider: ArtifactReplanDecider<TypeOf<L>>,
): ConditionalReplanningTool;
export function conditionalReplan(
  tool: Tool,
  decider: ArtifactReplanDecider<unknown>,
): ConditionalReplanningTool;
export function conditionalReplan(
  tool: Tool,
  typeOrDecider: TypeLike | ArtifactReplanDecider<unknown>,
  maybeDecider?: ArtifactReplanDecider<unknown>,
): ConditionalReplanningTool {
  const [type, decider] = typedArguments(typeOrDecider, maybeDecider);
  return new ConditionalReplanningTool(tool, (context) => {
    const artifact = artifactOf(context, type);
    if (artifact === undefined) return undefined;
    const decision = decider(artifact, context);
    if (!decision) return undefined;
    return {
      reason: decision.reason,
      blackboardUpdater: (blackboard) => {
        blackboard.add(artifact);
        decision.blackboardUpdater?.(blackboard);
      },
    };
  });
}
