import { ReplanRequested } from "../errors/replan-requested.js";
import { TerminateAction } from "../errors/terminate-action.js";
import { endSpan, withSpan } from "../loop/loop-telemetry.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import { typeNameOf } from "../tool/type-token.js";
import { coerceOutput } from "./action-output.js";
import type { AgentAction } from "./agent.js";
import type { AgentPlanning } from "./agent-planning.js";
import { parseCondition } from "./agent-planning.js";
import type { AgentProcess, ProcessControl } from "./agent-process.js";
import { operationContext } from "./operation-context.js";
import type { ActionOutcome } from "./process-event.js";
import { type ProcessEnding, processEnding } from "./process-failure.js";
import { startActionSpan } from "./process-telemetry.js";

/** What running one action led to. */
export type ActionResult =
  | { readonly kind: "succeeded" }
  | { readonly kind: "replan"; readonly reason: string }
  | { readonly kind: "terminated" }
  | { readonly kind: "ended"; readonly ending: ProcessEnding };

/**
 * Runs one action: reads its inputs (the latest blackboard object of each
 * input type), calls it with an `OperationContext`, adds its output to the
 * blackboard and sets its declared `post` flags that no condition function
 * computes. `ReplanRequested` applies its blackboard updater and asks for a
 * replan; `TerminateAction` ends only the action; anything else ends the process.
 */
export async function executeAction(
  process: AgentProcess,
  control: ProcessControl,
  planning: AgentPlanning,
  action: AgentAction,
  ai: (() => PromptRunner) | undefined,
): Promise<ActionResult> {
  const blackboard = process.blackboard;
  const startedAt = Date.now();
  if (control.observed) control.emit({ type: "action-start", action: action.name });
  const span = startActionSpan(process, action.name);
  const finish = (outcome: ActionOutcome, error?: unknown) => {
    const durationMs = Date.now() - startedAt;
    endSpan(span, error, span.isRecording() ? { "embabel.action.outcome": outcome } : undefined);
    control.recordAction({ actionName: action.name, startedAt, durationMs, outcome });
    if (!control.observed) return;
    control.emit({
      type: "action-end",
      action: action.name,
      durationMs,
      outcome,
      ...(error === undefined ? {} : { error }),
    });
  };
  try {
    const inputs = action.inputs.map((type) => blackboard.last(type));
    const output = coerceOutput(
      action,
      await withSpan(span, () => action.run(inputs, operationContext(process, action.name, ai))),
    );
    if (output !== undefined) {
      blackboard.add(output);
      if (control.observed)
        control.emit({
          type: "object-added",
          action: action.name,
          typeName: typeNameOf(output),
          value: output,
        });
    }
    for (const condition of action.post) {
      const { name, value } = parseCondition(condition);
      if (!planning.conditions.has(name) && !name.startsWith("has:") && !name.startsWith("hasRun:")) {
        blackboard.setCondition(name, value);
      }
    }
    finish("succeeded");
    return { kind: "succeeded" };
  } catch (error) {
    if (ReplanRequested.isInstance(error)) {
      try {
        error.blackboardUpdater(blackboard);
      } catch (updaterError) {
        return failAction(updaterError);
      }
      finish("replan");
      if (control.observed)
        control.emit({ type: "replan-requested", action: action.name, reason: error.reason });
      return { kind: "replan", reason: error.reason };
    }
    if (TerminateAction.isInstance(error) && !process.signal.aborted) {
      finish("terminated");
      return { kind: "terminated" };
    }
    return failAction(error);
  }

  function failAction(error: unknown): ActionResult {
    const ending = processEnding(error, process.signal);
    // The action line says what the process status will say: failed, killed or terminated.
    const outcome = ending.status === "failed" || ending.status === "killed" ? ending.status : "terminated";
    finish(outcome, ending.status === "failed" ? error : undefined);
    return { kind: "ended", ending };
  }
}
