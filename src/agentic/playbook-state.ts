import type { ResumableState } from "../loop/resumable-state.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "../loop/tool-injection-strategy.js";
import type { Blackboard } from "../platform/blackboard.js";
import { DelegatingTool } from "../tool/abstract-tool.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolDefinition } from "../tool/tool-definition.js";
import { ToolResult } from "../tool/tool-result.js";
import { Unfolding } from "../tool/unfolding.js";
import { isUnlocked, lockedMessage, type PlaybookContext, type UnlockCondition } from "./unlock-condition.js";

/** One playbook call's record of the tools called and the artifacts they returned. */
export class PlaybookState implements PlaybookContext {
  readonly calledToolNames = new Set<string>();
  readonly artifacts: unknown[] = [];
  iterationCount = 0;

  constructor(readonly blackboard: Blackboard) {}

  /** Records a call of `toolName` and the artifacts of its result (a list element by element, null skipped). */
  record(toolName: string, result: ToolResult): void {
    this.calledToolNames.add(toolName);
    this.iterationCount += 1;
    // Stryker disable next-line ConditionalExpression: a text or error result has no artifact, so going on adds nothing
    if (result.kind !== "artifact") return;
    const { artifact } = result;
    const values = Array.isArray(artifact) || artifact instanceof Set ? [...artifact] : [artifact];
    for (const value of values) if (value !== null && value !== undefined) this.artifacts.push(value);
  }

  /** The record as a loop waiting for a person keeps it. */
  snapshot(): PlaybookRecord | undefined {
    if (this.iterationCount === 0 && this.calledToolNames.size === 0) return undefined;
    return {
      calledToolNames: [...this.calledToolNames],
      artifacts: [...this.artifacts],
      iterationCount: this.iterationCount,
    };
  }

  /** Takes back what {@link PlaybookState.snapshot} kept (ignored when it is not such a record). */
  restore(record: unknown): void {
    if (!isPlaybookRecord(record)) return;
    this.calledToolNames.clear();
    for (const name of record.calledToolNames) this.calledToolNames.add(name);
    this.artifacts.length = 0;
    this.artifacts.push(...record.artifacts);
    this.iterationCount = record.iterationCount;
  }
}

/** A playbook call's record while its loop waits for a person. */
interface PlaybookRecord {
  readonly calledToolNames: readonly string[];
  readonly artifacts: readonly unknown[];
  readonly iterationCount: number;
}

function isPlaybookRecord(value: unknown): value is PlaybookRecord {
  const record = value as Partial<PlaybookRecord> | null;
  return (
    typeof record === "object" &&
    record !== null &&
    Array.isArray(record.calledToolNames) &&
    record.calledToolNames.every((name) => typeof name === "string") &&
    Array.isArray(record.artifacts) &&
    Number.isInteger(record.iterationCount)
  );
}

/** An always-available playbook tool: runs and records. */
export class RecordingTool extends DelegatingTool {
  constructor(
    delegate: Tool,
    /** The playbook call this tool records into. */
    readonly state: PlaybookState,
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
    this.state.record(this.definition.name, result);
    return result;
  }
}

/**
 * A playbook tool behind an unlock condition. While locked, its description
 * ends with the locked message (re-evaluated on every read) and a call
 * answers that message and records nothing; once unlocked, it is the
 * delegate's own description and calls run and record.
 */
export class LockedTool extends DelegatingTool {
  private lockedDefinition: ToolDefinition | undefined;

  constructor(
    delegate: Tool,
    private readonly condition: UnlockCondition,
    /** The playbook call this tool records into. */
    readonly state: PlaybookState,
  ) {
    super(delegate);
  }

  /** Whether the condition holds now. */
  get unlocked(): boolean {
    return isUnlocked(this.condition, this.state);
  }

  override get definition(): ToolDefinition {
    const own = this.delegate.definition;
    if (this.unlocked) return own;
    const description = `${own.description}\n\n${lockedMessage(this.condition, this.state)}`;
    if (this.lockedDefinition?.description !== description) {
      this.lockedDefinition = Object.freeze({ ...own, description });
    }
    return this.lockedDefinition;
  }

  override async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    if (!this.unlocked) return ToolResult.text(lockedMessage(this.condition, this.state));
    // Not gated again: a decorator's call is the gated call itself (same definition, metadata and input, admitted by whichever route called it).
    const result = await this.delegate.call(input, context, options);
    this.state.record(this.delegate.definition.name, result);
    return result;
  }
}

/**
 * Records the calls of one playbook run that its own wrappers do not see: tools
 * an unfolded facade offered, tools reached by tool chaining, and the tools a
 * facade ran by shortcut dispatch. So `unlockedBy("x")` unlocks after `x` ran
 * wherever `x` came from, and `unlockedByArtifact(T)` after any such tool
 * produced a `T`. A call that threw or timed out is not recorded (the
 * playbook's own wrappers record only a call that returned). An injection
 * strategy that never changes the tool list; a loop waiting for a person
 * keeps the record and gets it back when it resumes.
 */
export class PlaybookRecorder implements ToolInjectionStrategy, ResumableState {
  readonly resumeKey = "playbook";

  constructor(private readonly state: PlaybookState) {}

  captureState(): unknown {
    return this.state.snapshot();
  }

  restoreState(state: unknown): undefined {
    this.state.restore(state);
    return undefined;
  }

  evaluate(context: ToolInjectionContext): ToolInjectionResult | undefined {
    const { tool, toolName, toolInput, result, failed } = context.lastToolCall;
    if (failed === true) return undefined;
    const state = this.state;
    const wrapper = DelegatingTool.unwrap(
      tool,
      (candidate): candidate is RecordingTool | LockedTool =>
        // Stryker disable next-line ConditionalExpression,LogicalOperator: only this call's RecordingTool and LockedTool hold its state, and its loop offers no other call's wrappers
        (candidate instanceof RecordingTool || candidate instanceof LockedTool) && candidate.state === state,
    );
    // The playbook's own wrappers record their calls (and a locked one refusing records nothing).
    if (!wrapper) state.record(toolName, result);
    const call = { input: toolInput, context: context.context, definition: tool.definition };
    const dispatched = Unfolding.ofCall(tool, call, result)?.dispatched;
    if (dispatched) for (const name of dispatched) state.calledToolNames.add(name);
    return undefined;
  }
}
