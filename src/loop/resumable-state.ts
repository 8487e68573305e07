import { DelegatingTool } from "../tool/abstract-tool.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import { ChainedToolInjectionStrategy } from "./chained-tool-injection-strategy.js";
import type { ToolInjectionStrategy } from "./tool-injection-strategy.js";

/**
 * An injection strategy or a tool holding state that a tool loop stopped for
 * a person must get back when it resumes (chaining bindings, a playbook's
 * unlock history, a state machine's state, a one-shot tool's use). When the
 * loop stops, it asks every such strategy it runs with (a chain's parts
 * included) and every such tool it offers (and tool they wrap) for its state
 * and keeps it with the stopped loop; the resumed run gives each its state
 * back before the stopped round goes on (strategies before the tool list is
 * restored, tools after). Only on stop and resume, never per call.
 */
export interface ResumableState {
  /** Names this state among one loop's: the same in every run of the same code. */
  readonly resumeKey: string;
  /**
   * The state now. Values are kept as the process's blackboard objects are:
   * as they are in one process; a distributed runner writes them with its
   * type registry (plain JSON, registered classes, `domainType`s).
   * `undefined`: nothing to keep.
   */
  captureState(context: ToolCallContext): unknown;
  /**
   * Puts back what {@link ResumableState.captureState} returned (read back
   * from a checkpoint: check it). Returns the tools it had added to the loop
   * that the loop may offer again, if any.
   */
  restoreState(state: unknown, context: ToolCallContext): readonly Tool[] | undefined;
}

/** True for a strategy that keeps state across a wait. */
export function isResumableState(value: unknown): value is ResumableState {
  const candidate = value as Partial<ResumableState> | null | undefined;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.resumeKey === "string" &&
    typeof candidate.captureState === "function" &&
    typeof candidate.restoreState === "function"
  );
}

/** Adds `part` under its key (a repeated key gets `#2`, `#3`...). */
function add(parts: Map<string, ResumableState>, prefix: string, part: ResumableState): void {
  const base = `${prefix}${part.resumeKey}`;
  let key = base;
  for (let n = 2; parts.has(key); n += 1) key = `${base}#${n}`;
  parts.set(key, part);
}

/** The resumable parts of `strategy` (itself or a chain's parts, depth first), keyed. */
function strategyParts(strategy: ToolInjectionStrategy): Map<string, ResumableState> {
  const parts = new Map<string, ResumableState>();
  const seen = new Set<ToolInjectionStrategy>();
  const visit = (part: ToolInjectionStrategy): void => {
    if (seen.has(part)) return;
    seen.add(part);
    if (part instanceof ChainedToolInjectionStrategy) for (const inner of part.strategies) visit(inner);
    else if (isResumableState(part)) add(parts, "", part);
  };
  visit(strategy);
  return parts;
}

/** The resumable tools among `tools` and the tools they wrap, keyed `tool:<key>`. */
function toolParts(tools: readonly Tool[]): Map<string, ResumableState> {
  const parts = new Map<string, ResumableState>();
  const seen = new Set<Tool>();
  for (const tool of tools) {
    DelegatingTool.unwrap(tool, (candidate): candidate is Tool => {
      if (!seen.has(candidate) && isResumableState(candidate)) add(parts, "tool:", candidate);
      seen.add(candidate);
      return false;
    });
  }
  return parts;
}

function capture(
  parts: Map<string, ResumableState>,
  context: ToolCallContext,
  into: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  let states = into;
  for (const [key, part] of parts) {
    const state = part.captureState(context);
    if (state === undefined) continue;
    states ??= {};
    states[key] = state;
  }
  return states;
}

function restore(
  parts: Map<string, ResumableState>,
  states: Readonly<Record<string, unknown>> | undefined,
  context: ToolCallContext,
): readonly Tool[] {
  if (states === undefined) return [];
  const tools: Tool[] = [];
  for (const [key, part] of parts) {
    if (!Object.hasOwn(states, key)) continue;
    const offered = part.restoreState(states[key], context);
    if (offered) tools.push(...offered);
  }
  return tools;
}

/** What the resumable parts of `strategy` and of `tools` hold now, by key; `undefined` when none holds anything. */
export function captureLoopStates(
  strategy: ToolInjectionStrategy,
  tools: readonly Tool[],
  context: ToolCallContext,
): Record<string, unknown> | undefined {
  return capture(toolParts(tools), context, capture(strategyParts(strategy), context, undefined));
}

/** Gives each resumable part of `strategy` its kept state back; returns the tools they may offer again. */
export function restoreStrategyStates(
  strategy: ToolInjectionStrategy,
  states: Readonly<Record<string, unknown>> | undefined,
  context: ToolCallContext,
): readonly Tool[] {
  return restore(strategyParts(strategy), states, context);
}

/** Gives each resumable tool among `tools` (the restored list) its kept state back. */
export function restoreToolStates(
  tools: readonly Tool[],
  states: Readonly<Record<string, unknown>> | undefined,
  context: ToolCallContext,
): void {
  restore(toolParts(tools), states, context);
}
