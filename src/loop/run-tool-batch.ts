import type { LanguageModelV3ToolCall } from "@ai-sdk/provider";
import type { Tool } from "../tool/tool.js";
import { Unfolding } from "../tool/unfolding.js";
import { applyToolInjection } from "./apply-tool-injection.js";
import { executeToolCall, type ToolCallEnvironment, type ToolCallOutcome } from "./execute-tool-call.js";
import { emit, type LoopEventListener } from "./loop-telemetry.js";
import type { ToolInjectionStrategy } from "./tool-injection-strategy.js";

/** What the tool calls of one LLM round came to. */
export interface ToolBatch {
  /** The outcomes to report to the model, in call order (none after a replan in parallel mode). */
  readonly outcomes: readonly ToolCallOutcome[];
  /** The outcome that asked for a replan, if any (the first in call order). */
  readonly replan?: ToolCallOutcome;
  /** The content of the last successful returnDirect tool, if any. */
  readonly returnDirect?: string;
}

/** The loop state a batch needs. */
export interface ToolBatchEnvironment extends ToolCallEnvironment {
  readonly strategy: ToolInjectionStrategy;
  readonly parallel: boolean;
  readonly decorate?: (tool: Tool) => Tool;
  /** Receives `tools-changed` events (absent: nobody does, and they are not built). */
  readonly onToolsChanged?: LoopEventListener;
  /** Receives every tool added to and removed from the list. */
  readonly record: (added: readonly Tool[], removed: readonly Tool[]) => void;
}

/**
 * Executes the tool calls of one LLM round, in order (or concurrently with
 * results kept in call order), applying the injection strategy after each
 * executed tool so the next round sees the changed list.
 */
export async function runToolBatch(
  calls: readonly LanguageModelV3ToolCall[],
  environment: ToolBatchEnvironment,
  iteration: number,
): Promise<ToolBatch> {
  const outcomes: ToolCallOutcome[] = [];
  if (environment.parallel && calls.length > 1) {
    environment.signal?.throwIfAborted();
    const all = await Promise.all(calls.map((call) => executeToolCall(call, environment)));
    const replan = all.find((outcome) => outcome.replan);
    if (replan) return { outcomes: [], replan };
    outcomes.push(...all);
    for (const outcome of all) inject(outcome, environment, iteration);
  } else {
    for (const call of calls) {
      environment.signal?.throwIfAborted();
      const outcome = await executeToolCall(call, environment);
      if (outcome.replan) return { outcomes, replan: outcome };
      outcomes.push(outcome);
      inject(outcome, environment, iteration);
    }
  }
  let returnDirect: string | undefined;
  for (const outcome of outcomes) {
    const tool = outcome.tool;
    if (!tool || outcome.failed || outcome.result.kind === "error") continue;
    if (tool.metadata.returnDirect || unfoldedDirectly(tool, outcome, environment)) {
      returnDirect = outcome.result.content;
    }
  }
  return returnDirect === undefined ? { outcomes } : { outcomes, returnDirect };
}

/** True when the call unfolded a facade through shortcut dispatch into a returnDirect tool. */
function unfoldedDirectly(tool: Tool, outcome: ToolCallOutcome, environment: ToolBatchEnvironment): boolean {
  const call = {
    input: outcome.input ?? outcome.call.input,
    context: environment.context,
    definition: tool.definition,
  };
  return Unfolding.ofCall(tool, call, outcome.result)?.returnDirect === true;
}

function inject(outcome: ToolCallOutcome, environment: ToolBatchEnvironment, iteration: number): void {
  const tool = outcome.tool;
  if (!tool) return;
  const change = environment.strategy.evaluate({
    tools: environment.tools.tools,
    lastToolCall: {
      tool,
      toolName: outcome.call.toolName,
      toolInput: outcome.input ?? outcome.call.input,
      result: outcome.result,
    },
    iteration,
    context: environment.context,
  });
  if (!change) return;
  const { added, removed } = applyToolInjection(environment.tools, change, environment.decorate);
  if (added.length === 0 && removed.length === 0) return;
  environment.record(added, removed);
  const onToolsChanged = environment.onToolsChanged;
  if (onToolsChanged === undefined) return;
  emit(onToolsChanged, {
    type: "tools-changed",
    loopId: environment.loopId,
    added: added.map((added) => added.definition.name),
    removed: removed.map((removed) => removed.definition.name),
  });
}
