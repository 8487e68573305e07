import type { LanguageModelV3ToolCall } from "@ai-sdk/provider";
import { AwaitingResponse, type PendingRequest } from "../errors/awaiting-response.js";
import type { Tool } from "../tool/tool.js";
import { Unfolding } from "../tool/unfolding.js";
import { applyToolInjection } from "./apply-tool-injection.js";
import { decideApproval, restoredOutcome } from "./approval-gate.js";
import { executeToolCall, type ToolCallEnvironment, type ToolCallOutcome } from "./execute-tool-call.js";
import { emit, type LoopEventListener } from "./loop-telemetry.js";
import type { ApprovalAnswer, LoopWaits, SettledCall } from "./loop-waits.js";
import type { ToolInjectionStrategy } from "./tool-injection-strategy.js";

/** What the tool calls of one LLM round came to. */
export interface ToolBatch {
  /** The outcomes to report to the model, in call order (none after a replan in parallel mode). */
  readonly outcomes: readonly ToolCallOutcome[];
  /** The outcome that asked for a replan, if any (the first in call order). */
  readonly replan?: ToolCallOutcome;
  /** The content of the last successful returnDirect tool, if any. */
  readonly returnDirect?: string;
  /** Set when the round stopped to wait for a person: `outcomes` are the calls settled so far. */
  readonly suspended?: {
    /** New approval requests of this round (none when a tool itself waits). */
    readonly requests: readonly PendingRequest[];
    /** The wait thrown by a tool (a nested loop, a subagent, an awaitable). */
    readonly signal?: AwaitingResponse;
    /** The journal slot the stopping call was to claim first (sequential rounds; see `SuspendedLoop.resumeSlot`). */
    readonly slot?: number;
  };
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
  /** The agent process's waits (approvals, resumption); absent outside a process. */
  readonly waits?: LoopWaits;
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
  settled?: ReadonlyMap<string, SettledCall>,
): Promise<ToolBatch> {
  const outcomes: ToolCallOutcome[] = [];
  // Stryker disable next-line EqualityOperator,ConditionalExpression: one call (the least a round has) runs the same either way
  if (environment.parallel && calls.length > 1) {
    environment.signal?.throwIfAborted();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: settled calls come only with waits; without waits both paths deny approvals ("no person to ask"), run every call and keep results in call order
    if (environment.waits !== undefined || settled !== undefined) {
      return runParallelWaiting(calls, environment, iteration, settled);
    } else {
      const all = await Promise.all(calls.map((call) => executeToolCall(call, environment)));
      const replan = all.find((outcome) => outcome.replan);
      if (replan) return { outcomes: [], replan };
      outcomes.push(...all);
      for (const outcome of all) inject(outcome, environment, iteration);
    }
  } else {
    for (let index = 0; index < calls.length; index += 1) {
      const call = calls[index] as LanguageModelV3ToolCall;
      const done = settled?.get(call.toolCallId);
      if (done !== undefined) {
        outcomes.push(restoredOutcome(call, done, environment.tools));
        continue;
      }
      environment.signal?.throwIfAborted();
      const slot = environment.waits?.position?.();
      let answer: ApprovalAnswer | undefined;
      const tool = environment.tools.get(call.toolName);
      if (tool?.metadata.approval !== undefined) {
        const decision = await decideApproval(call, tool, environment);
        if (decision.kind === "pending") {
          // Stryker disable next-line MethodExpression: the earlier calls are decided already, and this call's request has the same key, kept once by the waits
          const rest = await pendingRequests(calls.slice(index + 1), environment);
          return { outcomes, suspended: { requests: [decision.request, ...rest], slot } };
        }
        // Stryker disable next-line ConditionalExpression: a "run" decision has no answer, so assigning it changes nothing
        if (decision.kind === "answered") answer = decision.answer;
      }
      let outcome: ToolCallOutcome;
      try {
        outcome = await executeToolCall(call, environment, answer);
      } catch (error) {
        // Stryker disable next-line ConditionalExpression: the loop throws a suspended batch's signal, so another error is thrown all the same
        if (AwaitingResponse.isInstance(error))
          // Stryker disable next-line ArrayDeclaration: with a signal, the loop throws it and never reads the requests
          return { outcomes, suspended: { requests: [], signal: error, slot } };
        throw error;
      }
      if (outcome.replan) return { outcomes, replan: outcome };
      outcomes.push(outcome);
      inject(outcome, environment, iteration);
    }
  }
  return finishBatch(outcomes, environment);
}

/** The parallel round inside a process: approvals asked for all at once; a tool that waits stops the round once the others settle. */
async function runParallelWaiting(
  calls: readonly LanguageModelV3ToolCall[],
  environment: ToolBatchEnvironment,
  iteration: number,
  settled: ReadonlyMap<string, SettledCall> | undefined,
): Promise<ToolBatch> {
  const answers: (ApprovalAnswer | undefined)[] = [];
  const requests: PendingRequest[] = [];
  for (const call of calls) {
    const tool = settled?.has(call.toolCallId) ? undefined : environment.tools.get(call.toolName);
    let answer: ApprovalAnswer | undefined;
    if (tool?.metadata.approval !== undefined) {
      const decision = await decideApproval(call, tool, environment);
      if (decision.kind === "pending") requests.push(decision.request);
      // Stryker disable next-line ConditionalExpression: a "run" decision has no answer, so assigning it changes nothing
      if (decision.kind === "answered") answer = decision.answer;
    }
    answers.push(answer);
  }
  const restored = (call: LanguageModelV3ToolCall): ToolCallOutcome | undefined => {
    const done = settled?.get(call.toolCallId);
    return done === undefined ? undefined : restoredOutcome(call, done, environment.tools);
  };
  if (requests.length > 0) {
    const kept = calls.map(restored).filter((outcome): outcome is ToolCallOutcome => outcome !== undefined);
    return { outcomes: kept, suspended: { requests } };
  }
  const results = await Promise.allSettled(
    calls.map((call, index) => {
      const done = restored(call);
      return done === undefined ? executeToolCall(call, environment, answers[index]) : Promise.resolve(done);
    }),
  );
  const fulfilled: ToolCallOutcome[] = [];
  let waiting: AwaitingResponse | undefined;
  for (const result of results) {
    if (result.status === "fulfilled") fulfilled.push(result.value);
    else if (AwaitingResponse.isInstance(result.reason)) waiting ??= result.reason;
    else throw result.reason;
  }
  // A replan ends the round even when another call waits: that call's question is moot once the plan changes.
  const replan = fulfilled.find((outcome) => outcome.replan);
  if (replan) return { outcomes: [], replan };
  // Each call's change to the tool list is applied once, in the run it settled in: a suspended
  // round keeps the list it had then, and its settled calls are not applied again on resuming.
  for (const outcome of fulfilled) {
    if (!settled?.has(outcome.call.toolCallId)) inject(outcome, environment, iteration);
  }
  // Stryker disable next-line ArrayDeclaration: with a signal, the loop throws it and never reads the requests
  if (waiting !== undefined) return { outcomes: fulfilled, suspended: { requests: [], signal: waiting } };
  return finishBatch(fulfilled, environment);
}

/** The approval requests of the calls after the one that stopped the round. */
async function pendingRequests(
  calls: readonly LanguageModelV3ToolCall[],
  environment: ToolBatchEnvironment,
): Promise<PendingRequest[]> {
  const requests: PendingRequest[] = [];
  for (const call of calls) {
    const tool = environment.tools.get(call.toolName);
    if (tool?.metadata.approval === undefined) continue;
    const decision = await decideApproval(call, tool, environment);
    if (decision.kind === "pending") requests.push(decision.request);
  }
  return requests;
}

/** The batch of `outcomes`, with the returnDirect content if a returnDirect tool succeeded. */
function finishBatch(outcomes: ToolCallOutcome[], environment: ToolBatchEnvironment): ToolBatch {
  let returnDirect: string | undefined;
  for (const outcome of outcomes) {
    const tool = outcome.tool;
    if (!tool || outcome.failed || outcome.result.kind === "error") continue;
    if (tool.metadata.returnDirect || unfoldedDirectly(tool, outcome, environment)) {
      returnDirect = outcome.result.content;
    }
  }
  // Stryker disable next-line ConditionalExpression: `returnDirect: undefined` reads as no returnDirect
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
      ...(outcome.failed ? { failed: true } : {}),
    },
    iteration,
    context: environment.context,
  });
  if (!change) return;
  const { added, removed } = applyToolInjection(environment.tools, change, environment.decorate);
  if (added.length === 0 && removed.length === 0) return;
  environment.record(added, removed);
  const onToolsChanged = environment.onToolsChanged;
  // Stryker disable next-line ConditionalExpression: emit swallows the TypeError of calling no listener; nothing observable changes
  if (onToolsChanged === undefined) return;
  emit(onToolsChanged, {
    type: "tools-changed",
    loopId: environment.loopId,
    added: added.map((added) => added.definition.name),
    removed: removed.map((removed) => removed.definition.name),
  });
}
