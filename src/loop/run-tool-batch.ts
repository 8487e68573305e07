import type { LanguageModelV3ToolCall } from "@ai-sdk/provider";
import { AwaitingResponse, type PendingRequest } from "../errors/awaiting-response.js";
import type { Tool } from "../tool/tool.js";
import { Unfolding } from "../tool/unfolding.js";
import { applyToolInjection } from "./apply-tool-injection.js";
import { restoredOutcome } from "./approval-gate.js";
import type { BatchDeadline } from "./call-with-timeout.js";
import { executeToolCall, type ToolCallEnvironment, type ToolCallOutcome } from "./execute-tool-call.js";
import { emit, type LoopEventListener } from "./loop-telemetry.js";
import type { LoopWaits, SettledCall } from "./loop-waits.js";
import { admitToolCall, type GateAdmission } from "./tool-gate.js";
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
    /** The index in the round of each of `outcomes`. */
    readonly indexes: readonly number[];
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

/** The gate's key of call `index` of round `iteration` of loop `loopId` (never the provider's id). */
export function loopCallKey(loopId: string, iteration: number, index: number): string {
  return `${loopId}/${iteration}.${index}`;
}

/** The settled call at `index` (older checkpoints: by the provider's id). */
function settledAt(
  settled: ReadonlyMap<string, SettledCall> | undefined,
  call: LanguageModelV3ToolCall,
  index: number,
): SettledCall | undefined {
  if (settled === undefined) return undefined;
  return settled.get(`#${index}`) ?? settled.get(call.toolCallId);
}

/** The key a settled call is kept under in a resumed round. */
export function settledKey(call: SettledCall): string {
  return call.index === undefined ? call.toolCallId : `#${call.index}`;
}

/** The gate's decision for a call of a tool that needs approval; `undefined` for any other call. */
function admit(
  call: LanguageModelV3ToolCall,
  environment: ToolBatchEnvironment,
  callKey: string,
  peek: boolean,
): Promise<GateAdmission> | undefined {
  const tool = environment.tools.get(call.toolName);
  if (tool?.metadata.approval === undefined) return undefined;
  return admitToolCall(
    { tool, toolName: call.toolName, input: call.input, callKey },
    environment,
    peek ? PEEK : NO_PEEK,
  );
}

/** A parallel round's per-call limit when the loop sets no `toolTimeoutMs` (the reference's parallel loop). */
export const PARALLEL_TOOL_TIMEOUT_MS = 30_000;
/** A parallel round's overall limit when the loop sets no `toolTimeoutMs` (the reference's parallel loop). */
export const PARALLEL_BATCH_TIMEOUT_MS = 60_000;

/**
 * Runs a parallel round under the reference's defaults when the loop sets no
 * `toolTimeoutMs`: each call 30 s (a tool's own limit wins), and every call
 * still running 60 s after the round began answered as timed out.
 */
async function withParallelLimits(
  environment: ToolBatchEnvironment,
  run: (environment: ToolBatchEnvironment) => Promise<ToolBatch>,
): Promise<ToolBatch> {
  if (environment.toolTimeoutMs !== undefined) return run(environment);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reached: Promise<void> | undefined;
  // The clock starts with the first call that runs: a person's approval before it is not the tools' time.
  const deadline: BatchDeadline = {
    ms: PARALLEL_BATCH_TIMEOUT_MS,
    reached: () => {
      reached ??= new Promise<void>((resolve) => {
        timer = setTimeout(resolve, PARALLEL_BATCH_TIMEOUT_MS);
      });
      return reached;
    },
  };
  try {
    return await run({ ...environment, toolTimeoutMs: PARALLEL_TOOL_TIMEOUT_MS, batchDeadline: deadline });
  } finally {
    clearTimeout(timer);
  }
}

const PEEK = Object.freeze({ peek: true });
const NO_PEEK = Object.freeze({});

/**
 * Executes the tool calls of one LLM round, in order (or concurrently with
 * results kept in call order), applying the injection strategy after each
 * executed tool so the next round sees the changed list. Calls of tools that
 * need approval pass the whole gate first; a call that must wait for a person
 * stops the round with the requests of it and of every later call.
 */
export async function runToolBatch(
  calls: readonly LanguageModelV3ToolCall[],
  environment: ToolBatchEnvironment,
  iteration: number,
  settled?: ReadonlyMap<string, SettledCall>,
): Promise<ToolBatch> {
  const outcomes: ToolCallOutcome[] = [];
  const { loopId } = environment;
  // Stryker disable next-line EqualityOperator,ConditionalExpression: one call (the least a round has) runs the same either way
  if (environment.parallel && calls.length > 1) {
    environment.signal?.throwIfAborted();
    return withParallelLimits(environment, (limited) =>
      // Stryker disable next-line ConditionalExpression,EqualityOperator: settled calls come only with waits
      limited.waits !== undefined || settled !== undefined || limited.approvals !== undefined
        ? runParallelWaiting(calls, limited, iteration, settled)
        : runParallel(calls, limited, iteration),
    );
  } else {
    for (let index = 0; index < calls.length; index += 1) {
      const call = calls[index] as LanguageModelV3ToolCall;
      const done = settledAt(settled, call, index);
      if (done !== undefined) {
        outcomes.push(restoredOutcome(call, done, environment.tools));
        continue;
      }
      environment.signal?.throwIfAborted();
      const slot = environment.waits?.position?.();
      const callKey = loopCallKey(loopId, iteration, index);
      const admission = await admit(call, environment, callKey, false);
      if (admission?.kind === "pending") {
        const rest = await pendingRequests(calls, index + 1, environment, iteration);
        return {
          outcomes,
          suspended: { requests: [admission.request, ...rest], indexes: indexesTo(outcomes.length), slot },
        };
      }
      let outcome: ToolCallOutcome;
      try {
        outcome = await executeToolCall(call, environment, callKey, admission);
      } catch (error) {
        // Stryker disable next-line ConditionalExpression: the loop throws a suspended batch's signal, so another error is thrown all the same
        if (AwaitingResponse.isInstance(error))
          // Stryker disable next-line ArrayDeclaration: with a signal, the loop throws it and never reads the requests
          return {
            outcomes,
            suspended: { requests: [], signal: error, indexes: indexesTo(outcomes.length), slot },
          };
        throw error;
      }
      if (outcome.replan) return { outcomes, replan: outcome };
      outcomes.push(outcome);
      inject(outcome, environment, iteration);
    }
  }
  return finishBatch(outcomes, environment);
}

/** The parallel round with nobody to ask: all calls at once, results in call order. */
async function runParallel(
  calls: readonly LanguageModelV3ToolCall[],
  environment: ToolBatchEnvironment,
  iteration: number,
): Promise<ToolBatch> {
  const { loopId } = environment;
  const all = await Promise.all(
    calls.map(async (call, index) => {
      const callKey = loopCallKey(loopId, iteration, index);
      const admission = await admit(call, environment, callKey, false);
      return executeToolCall(call, environment, callKey, admission);
    }),
  );
  const replan = all.find((outcome) => outcome.replan);
  if (replan) return { outcomes: [], replan };
  for (const outcome of all) inject(outcome, environment, iteration);
  return finishBatch(all, environment);
}

function indexesTo(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

/**
 * The parallel round with someone to ask: every approval of the round is
 * looked at first (nothing used up), so a round that must wait asks for all
 * of them at once; then each call is admitted for real and all run together.
 * A tool that waits stops the round once the others settle.
 */
async function runParallelWaiting(
  calls: readonly LanguageModelV3ToolCall[],
  environment: ToolBatchEnvironment,
  iteration: number,
  settled: ReadonlyMap<string, SettledCall> | undefined,
): Promise<ToolBatch> {
  const { loopId } = environment;
  const requests: PendingRequest[] = [];
  const open = calls.map((call, index) => settledAt(settled, call, index) === undefined);
  for (let index = 0; index < calls.length; index += 1) {
    if (!open[index]) continue;
    const admission = await admit(
      calls[index] as LanguageModelV3ToolCall,
      environment,
      loopCallKey(loopId, iteration, index),
      true,
    );
    if (admission?.kind === "pending") requests.push(admission.request);
  }
  const restored = (call: LanguageModelV3ToolCall, index: number): ToolCallOutcome | undefined => {
    const done = settledAt(settled, call, index);
    return done === undefined ? undefined : restoredOutcome(call, done, environment.tools);
  };
  if (requests.length > 0) {
    const kept: ToolCallOutcome[] = [];
    const indexes: number[] = [];
    calls.forEach((call, index) => {
      const outcome = restored(call, index);
      if (outcome === undefined) return;
      kept.push(outcome);
      indexes.push(index);
    });
    return { outcomes: kept, suspended: { requests, indexes } };
  }
  const admissions: (GateAdmission | undefined)[] = [];
  for (let index = 0; index < calls.length; index += 1) {
    admissions.push(
      open[index]
        ? await admit(
            calls[index] as LanguageModelV3ToolCall,
            environment,
            loopCallKey(loopId, iteration, index),
            false,
          )
        : undefined,
    );
  }
  const results = await Promise.allSettled(
    calls.map((call, index) => {
      const done = restored(call, index);
      if (done !== undefined) return Promise.resolve(done);
      const admission = admissions[index];
      // Answered between the look and the decision (a second process?): asked again next time.
      if (admission?.kind === "pending") return Promise.reject(new AwaitingResponse([admission.request]));
      return executeToolCall(call, environment, loopCallKey(loopId, iteration, index), admission);
    }),
  );
  const fulfilled: ToolCallOutcome[] = [];
  const indexes: number[] = [];
  let waiting: AwaitingResponse | undefined;
  results.forEach((result, index) => {
    if (result.status === "fulfilled") {
      fulfilled.push(result.value);
      indexes.push(index);
    } else if (AwaitingResponse.isInstance(result.reason)) waiting ??= result.reason;
    else throw result.reason;
  });
  // A replan ends the round even when another call waits: that call's question is moot once the plan changes.
  const replan = fulfilled.find((outcome) => outcome.replan);
  if (replan) return { outcomes: [], replan };
  // Each call's change to the tool list is applied once, in the run it settled in: a suspended
  // round keeps the list it had then, and its settled calls are not applied again on resuming.
  fulfilled.forEach((outcome, position) => {
    if (open[indexes[position] as number]) inject(outcome, environment, iteration);
  });
  // Stryker disable next-line ArrayDeclaration: with a signal, the loop throws it and never reads the requests
  if (waiting !== undefined)
    return { outcomes: fulfilled, suspended: { requests: [], signal: waiting, indexes } };
  return finishBatch(fulfilled, environment);
}

/** The approval requests of the calls from `from` on, after the one that stopped the round (no answer used up). */
async function pendingRequests(
  calls: readonly LanguageModelV3ToolCall[],
  from: number,
  environment: ToolBatchEnvironment,
  iteration: number,
): Promise<PendingRequest[]> {
  const requests: PendingRequest[] = [];
  for (let index = from; index < calls.length; index += 1) {
    const call = calls[index] as LanguageModelV3ToolCall;
    const admission = await admit(call, environment, loopCallKey(environment.loopId, iteration, index), true);
    if (admission?.kind === "pending") requests.push(admission.request);
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
