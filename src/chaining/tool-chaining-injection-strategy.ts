import type { ResumableState } from "../loop/resumable-state.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "../loop/tool-injection-strategy.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import type { Tool } from "../tool/tool.js";
import type { DomainToolBindings, DomainToolTracker } from "./domain-tool-tracker.js";

/** What a chaining session keeps while its loop waits for a person. */
interface ChainingState extends DomainToolBindings {
  /** The names of the discovered tools offered. */
  readonly offered: readonly string[];
}

function isChainingState(value: unknown): value is ChainingState {
  const state = value as Partial<ChainingState> | null;
  return (
    typeof state === "object" &&
    state !== null &&
    Array.isArray(state.bound) &&
    state.bound.every((entry) => Array.isArray(entry) && typeof entry[0] === "string") &&
    Array.isArray(state.offered) &&
    state.offered.every((name) => typeof name === "string")
  );
}

/**
 * Offers every artifact a tool returns to the tracker, so placeholders bind;
 * in auto-discovery mode it appends the discovered object's tools for the
 * next LLM call and removes those of the object discovered before. A
 * discovered tool whose name is already offered is left out. A loop that
 * stops for a person keeps the bindings and the discovered tools offered, and
 * gets them back when it resumes.
 */
export class ToolChainingInjectionStrategy implements ToolInjectionStrategy, ResumableState {
  readonly resumeKey = "tool-chaining";
  private offeredTools: readonly Tool[] = [];

  constructor(private readonly tracker: DomainToolTracker) {}

  /** The discovered tools this strategy has added and not removed since. */
  get offered(): readonly Tool[] {
    return this.offeredTools;
  }

  /** The bindings and offered tools to keep while the loop waits (see `ResumableState`). */
  captureState(): ChainingState | undefined {
    const bindings = this.tracker.snapshot();
    if (bindings === undefined) return undefined;
    return { ...bindings, offered: this.offeredTools.map((tool) => tool.definition.name) };
  }

  /** Gives back what {@link captureState} kept: the bindings, and the discovered tools to offer again. */
  restoreState(state: unknown): readonly Tool[] | undefined {
    if (!isChainingState(state)) return undefined;
    const offered = new Set(state.offered);
    this.offeredTools = this.tracker.restore(state).filter((tool) => offered.has(tool.definition.name));
    return this.offeredTools;
  }

  /** The tools to add, remove or replace after the call `context` describes, or `undefined` for no change. */
  evaluate(context: ToolInjectionContext): ToolInjectionResult | undefined {
    const { result } = context.lastToolCall;
    if (result.kind !== "artifact") return undefined;
    const tools = this.tracker.offer(result.artifact, AmbientProcess.current());
    if (!tools) return undefined;
    const remove = this.offeredTools.map((tool) => tool.definition.name);
    const previous = new Set(remove);
    const taken = new Set(
      context.tools.map((tool) => tool.definition.name).filter((name) => !previous.has(name)),
    );
    const add = tools.filter((tool) => !taken.has(tool.definition.name));
    this.offeredTools = add;
    if (add.length === 0 && remove.length === 0) return undefined;
    return { ...(remove.length > 0 ? { remove } : {}), ...(add.length > 0 ? { add } : {}) };
  }
}
