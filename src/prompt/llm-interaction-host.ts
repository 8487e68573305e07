import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { UsageRecord } from "../llm/usage-ledger.js";
import type { LoopWaits } from "../loop/loop-waits.js";
import type { LlmUsage, ToolLoopEvent } from "../loop/tool-loop.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";

/** One LLM call of an interaction, as reported to the host: the ledger record plus the model's name and duration. */
export interface LlmInteractionCall extends UsageRecord {
  /** The platform's name for the model (`main`, or the id it was given by). */
  readonly modelName: string;
  readonly durationMs: number;
}

/**
 * What a prompt runner needs of the agent process it runs in. The platform's
 * `AgentProcess` implements it; the runner finds it at call time through
 * `AmbientProcess.current()`, so a runner used inside an action merges the
 * process's context, reports its calls and respects the process's budget.
 */
export interface LlmInteractionHost {
  /** The process-level context (`ProcessOptions.withToolCallContext`); the interaction's entries win over it. */
  readonly toolCallContext: ToolCallContext;
  /** Aborts every interaction of the process (combined with the runner's own signal). */
  readonly signal?: AbortSignal;
  /** Retries of a failed model call for runners that set none (`ProcessOptions.maxRetries`). @default undefined (the platform's) */
  readonly maxRetries?: number;
  /** Receives every event of the tool loop (of `loopEventTypes`); must not throw. */
  onLoopEvent(event: ToolLoopEvent): void;
  /** The loop event types `onLoopEvent` receives; events no one else needs are never built (every LLM call still reaches `recordLlmCall`). Return a set that does not change afterwards (runners remember what they derive from it). @default every type */
  readonly loopEventTypes?: ReadonlySet<ToolLoopEvent["type"]>;
  /** Called before every LLM call with the loop's state; throwing (a budget error) ends the interaction with that error. */
  beforeLlmCall(state: { readonly iteration: number; readonly usage: LlmUsage }): void;
  /** Records one finished LLM call (usage, model, cost). */
  recordLlmCall(call: LlmInteractionCall): void;
  /** Wraps every tool the loop offers (events, binding); absent means tools run as they are. */
  decorateTool?(tool: Tool): Tool;
  /** Wraps the model of one interaction (prompt and reply reporting); absent means the model is called as it is. */
  observeModel?(model: LanguageModelV3): LanguageModelV3;
  /** Where the process keeps its waits (approvals, resumption); absent means approvals are denied in-band. */
  readonly loopWaits?: LoopWaits;
}

/** True when `value` implements {@link LlmInteractionHost}. */
function isLlmInteractionHost(value: unknown): value is LlmInteractionHost {
  if (typeof value !== "object" || value === null) return false;
  const host = value as Partial<LlmInteractionHost>;
  return (
    typeof host.toolCallContext === "object" &&
    host.toolCallContext !== null &&
    typeof host.onLoopEvent === "function" &&
    typeof host.beforeLlmCall === "function" &&
    typeof host.recordLlmCall === "function"
  );
}

/** Finding the host of the current call. */
export const LlmInteractionHost = {
  /** The current process when it implements {@link LlmInteractionHost}, else `undefined`. */
  current(): LlmInteractionHost | undefined {
    const process = AmbientProcess.current();
    return isLlmInteractionHost(process) ? process : undefined;
  },
  /** True when `value` implements {@link LlmInteractionHost}. */
  isLlmInteractionHost,
};
