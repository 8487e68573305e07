import type { Span } from "@opentelemetry/api";
import { AwaitingResponse } from "../errors/awaiting-response.js";
import { ReplanRequested } from "../errors/replan-requested.js";
import { TerminateAction } from "../errors/terminate-action.js";
import { endSpan, withSpan } from "../loop/loop-telemetry.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import { coerceOutput } from "./action-output.js";
import type { AgentAction } from "./agent-interface.js";
import type { AgentPlanning } from "./agent-planning.js";
import { parseCondition } from "./agent-planning.js";
import type { AgentProcess } from "./agent-process.js";
import type { ProcessControl } from "./process-control.js";
import type { ActionOutcome } from "./process-event.js";
import { type ProcessEnding, processEnding } from "./process-failure.js";
import { operationContext } from "./process-operation-context.js";
import { startActionSpan } from "./process-telemetry.js";

/** What running one action led to. */
export type ActionResult =
  | { readonly kind: "succeeded" }
  | { readonly kind: "replan"; readonly reason: string }
  | { readonly kind: "terminated" }
  | { readonly kind: "waiting"; readonly signal: AwaitingResponse }
  | { readonly kind: "ended"; readonly ending: ProcessEnding };

/**
 * Runs one action: reads its inputs (the latest blackboard object of each
 * input type), calls it with an `OperationContext`, adds its output to the
 * blackboard and sets its declared `post` flags that no condition function
 * computes. `ReplanRequested` applies its blackboard updater and asks for a
 * replan; `TerminateAction` ends only the action; anything else ends the process.
 */
export function executeAction(
  process: AgentProcess,
  control: ProcessControl,
  planning: AgentPlanning,
  action: AgentAction,
  ai: (() => PromptRunner) | undefined,
): Promise<ActionResult> {
  // Not an async function: while the action awaits its LLM calls, only this run's promise reaction is alive, not a suspended frame.
  const run = new ActionRun(process, control, planning, action);
  let returned: unknown;
  try {
    const blackboard = process.blackboard;
    const inputs = action.inputs.map((type) => blackboard.last(type));
    const context = operationContext(process, action.name, ai);
    returned = withSpan(run.span, () => action.run(inputs, context));
  } catch (error) {
    return Promise.resolve(run.failed(error));
  }
  return Promise.resolve(returned).then(
    (output) => run.succeeded(output),
    (error: unknown) => run.failed(error),
  );
}

/** One run of an action: its start, span, and how each ending is recorded. */
class ActionRun {
  private readonly startedAt = Date.now();
  readonly span: Span;

  constructor(
    private readonly process: AgentProcess,
    private readonly control: ProcessControl,
    private readonly planning: AgentPlanning,
    private readonly action: AgentAction,
  ) {
    if (control.observed) control.emit({ type: "action-start", action: action.name });
    control.setAction(action.name);
    control.actionStarted();
    this.span = startActionSpan(process, action.name);
  }

  /** The action returned `returned`: its output goes on the blackboard, its flags are set. */
  succeeded(returned: unknown): ActionResult {
    const { process, planning, action } = this;
    const blackboard = process.blackboard;
    try {
      const output = coerceOutput(action, returned);
      // An observed process reports the addition itself (object-added, with this action's name).
      if (output !== undefined) blackboard.add(output);
      for (const condition of action.post) {
        const { name, value } = parseCondition(condition);
        if (!planning.conditions.has(name) && !name.startsWith("has:") && !name.startsWith("hasRun:")) {
          blackboard.setCondition(name, value);
        }
      }
    } catch (error) {
      return this.failed(error);
    }
    this.finish("succeeded");
    return SUCCEEDED;
  }

  /** The action (or storing its output) threw `error`. */
  failed(error: unknown): ActionResult {
    const { process, control, action } = this;
    if (ReplanRequested.isInstance(error)) {
      try {
        error.blackboardUpdater(process.blackboard);
      } catch (updaterError) {
        return this.ended(updaterError);
      }
      this.finish("replan");
      if (control.observed)
        control.emit({ type: "replan-requested", action: action.name, reason: error.reason });
      return { kind: "replan", reason: error.reason };
    }
    if (AwaitingResponse.isInstance(error) && !process.signal.aborted) {
      this.finish("waiting");
      return { kind: "waiting", signal: error };
    }
    if (TerminateAction.isInstance(error) && !process.signal.aborted) {
      this.finish("terminated");
      return TERMINATED;
    }
    return this.ended(error);
  }

  /** `error` ends the process: the action line says what the process status will say. */
  private ended(error: unknown): ActionResult {
    const ending = processEnding(error, this.process.signal);
    const outcome = ending.status === "failed" || ending.status === "killed" ? ending.status : "terminated";
    this.finish(outcome, ending.status === "failed" ? error : undefined);
    return { kind: "ended", ending };
  }

  private finish(outcome: ActionOutcome, error?: unknown): void {
    const { span, control, action, startedAt } = this;
    const durationMs = Date.now() - startedAt;
    control.setAction(undefined);
    endSpan(span, error, span.isRecording() ? { "embabel.action.outcome": outcome } : undefined);
    // A waiting action runs again once answered: it is recorded (and counted) when it ends for good.
    if (outcome !== "waiting") {
      control.actionEnded();
      control.recordAction({ actionName: action.name, startedAt, durationMs, outcome });
    }
    if (!control.observed) return;
    control.emit({
      type: "action-end",
      action: action.name,
      durationMs,
      outcome,
      ...(error === undefined ? {} : { error }),
    });
  }
}

const SUCCEEDED: ActionResult = Object.freeze({ kind: "succeeded" });
const TERMINATED: ActionResult = Object.freeze({ kind: "terminated" });
