import type { Tool } from "../tool/tool.js";
import { ChainedToolInjectionStrategy } from "./chained-tool-injection-strategy.js";
import type { ToolInjectionStrategy } from "./tool-injection-strategy.js";

/**
 * An injection strategy holding state that a tool loop stopped for a person
 * must get back when it resumes (chaining bindings, a playbook's unlock
 * history, a state machine's state). When the loop stops, it asks every such
 * strategy it runs with (a chain's parts included) for its state and keeps it
 * with the stopped loop; the resumed run builds fresh strategies and gives
 * each its state back before the stopped round goes on. Only on stop and
 * resume, never per call.
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
  captureState(): unknown;
  /**
   * Puts back what {@link ResumableState.captureState} returned (read back
   * from a checkpoint: check it). Returns the tools it had added to the loop
   * that the loop may offer again, if any.
   */
  restoreState(state: unknown): readonly Tool[] | undefined;
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

/** The resumable parts of `strategy` (itself or a chain's parts, depth first), keyed; a repeated key gets `#2`, `#3`... */
function resumableParts(strategy: ToolInjectionStrategy): Map<string, ResumableState> {
  const parts = new Map<string, ResumableState>();
  const seen = new Set<ToolInjectionStrategy>();
  const visit = (part: ToolInjectionStrategy): void => {
    if (seen.has(part)) return;
    seen.add(part);
    if (part instanceof ChainedToolInjectionStrategy) for (const inner of part.strategies) visit(inner);
    else if (isResumableState(part)) {
      let key = part.resumeKey;
      for (let n = 2; parts.has(key); n += 1) key = `${part.resumeKey}#${n}`;
      parts.set(key, part);
    }
  };
  visit(strategy);
  return parts;
}

/** What the resumable parts of `strategy` hold now, by key; `undefined` when none holds anything. */
export function captureLoopStates(strategy: ToolInjectionStrategy): Record<string, unknown> | undefined {
  let states: Record<string, unknown> | undefined;
  for (const [key, part] of resumableParts(strategy)) {
    const state = part.captureState();
    if (state === undefined) continue;
    states ??= {};
    states[key] = state;
  }
  return states;
}

/** Gives each resumable part of `strategy` its kept state back; returns the tools they may offer again. */
export function restoreLoopStates(
  strategy: ToolInjectionStrategy,
  states: Readonly<Record<string, unknown>> | undefined,
): readonly Tool[] {
  if (states === undefined) return [];
  const tools: Tool[] = [];
  for (const [key, part] of resumableParts(strategy)) {
    if (!Object.hasOwn(states, key)) continue;
    const offered = part.restoreState(states[key]);
    if (offered) tools.push(...offered);
  }
  return tools;
}
