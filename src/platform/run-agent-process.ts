import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import { typeNameOf } from "../tool/type-token.js";
import type { AgentGoal } from "./agent-goal.js";
import type { Agent, AgentAction } from "./agent-interface.js";
import { type AgentPlanning, agentPlanning, planGoal, worldState } from "./agent-planning.js";
import type { AgentProcess } from "./agent-process.js";
import { executeAction } from "./execute-action.js";
import type { GoapNoPlan, GoapPlan } from "./planning/goap-planner.js";
import type { ProcessControl } from "./process-control.js";

/** No action excluded from planning (shared: never changed). */
const NOTHING_EXCLUDED: ReadonlySet<string> = new Set<string>();

/**
 * The agent process loop: read the world state from the blackboard, plan
 * for every goal, finish when one holds, otherwise run the first action of
 * the cheapest plan and plan again. Ends `completed`, `stuck` (no plan; the
 * reason names the conditions), `terminated` (budget, termination request),
 * `killed` (signal) or `failed` (an action threw), or stops `waiting` when an
 * action waits for a person (a subagent's wait is rethrown to its parent's
 * tool call, so the root process waits). `afterAction` is awaited
 * after each action that did not end the process.
 */
export async function runAgentLoop(
  process: AgentProcess,
  control: ProcessControl,
  agent: Agent,
  ai: (() => PromptRunner) | undefined,
  afterAction?: (process: AgentProcess) => void | Promise<void>,
): Promise<void> {
  const planning = agentPlanning(agent);
  let excluded: string | undefined;
  for (;;) {
    // Planning is synchronous and kept out of this frame: nothing it builds stays alive while the action runs.
    const plan = nextPlan(process, control, planning, excluded);
    if (plan === undefined) return;
    if (plansShown(process)) await reportPlan(process, plan);
    const action = planning.actions.get((plan.actions[0] as { name: string }).name) as AgentAction;
    const outcome = await executeAction(process, control, planning, action, ai);
    if (outcome.kind === "waiting") return control.wait(outcome.signal);
    excluded = outcome.kind === "replan" ? action.name : undefined;
    if (outcome.kind === "ended") {
      const { status, reason, failure } = outcome.ending;
      return control.finish(status, reason, { failure });
    }
    if (afterAction) await afterAction(process);
  }
}

/**
 * The plan whose first action runs next, or `undefined` when the process has
 * ended (killed, terminated, goal achieved, budget spent, stuck). `excluded`
 * names the action that just asked for a replan: it is left out of the plans
 * unless no goal can be planned without it.
 */
function nextPlan(
  process: AgentProcess,
  control: ProcessControl,
  planning: AgentPlanning,
  excluded: string | undefined,
): GoapPlan | undefined {
  if (process.signal.aborted) {
    const reason = process.signal.reason;
    control.finish("killed", reason instanceof Error ? reason.message : "Killed");
    return undefined;
  }
  if (control.terminateRequest !== undefined) {
    control.finish("terminated", control.terminateRequest);
    return undefined;
  }
  const holds = worldState(planning, process);
  let results = planAll(planning, holds, excluded === undefined ? NOTHING_EXCLUDED : new Set([excluded]));
  if (excluded !== undefined && !results.some((result) => result.kind === "plan")) {
    results = planAll(planning, holds, NOTHING_EXCLUDED);
  }
  const achieved = results.find((result) => result.kind === "plan" && result.actions.length === 0);
  if (achieved) {
    const goal = planning.agentGoals.get(achieved.goal.name) as AgentGoal;
    control.setGoal(goal);
    if (control.observed) control.emit({ type: "goal-achieved", goal: goal.name });
    const result = goal.output ? process.blackboard.last(goal.output) : process.blackboard.lastResult();
    control.finish("completed", undefined, { result });
    return undefined;
  }
  try {
    process.checkBudget();
  } catch (error) {
    if (BudgetExceededError.isInstance(error)) {
      control.finish("terminated", error.message);
      return undefined;
    }
    throw error;
  }
  const plan = cheapestPlan(results);
  if (!plan) {
    const reasons = results.map((result) => (result as GoapNoPlan).reason);
    control.finish("stuck", `${reasons.join(" ")} ${blackboardTypes(process)}`);
    return undefined;
  }
  control.setGoal(planning.agentGoals.get(plan.goal.name));
  // The event lists every condition of the agent, evaluated: built only when something reads it.
  if (control.observed) {
    control.emit({
      type: "plan-formulated",
      goal: plan.goal.name,
      actions: plan.actions.map((action) => action.name),
      cost: plan.cost,
      worldState: planning.planner.conditions.filter((condition) => holds(condition)),
    });
  }
  return plan;
}

/** The cheapest plan (the first of equal cost), if any goal has one. */
function cheapestPlan(results: readonly (GoapPlan | GoapNoPlan)[]): GoapPlan | undefined {
  let best: GoapPlan | undefined;
  for (const result of results) {
    if (result.kind === "plan" && (best === undefined || result.cost < best.cost)) best = result;
  }
  return best;
}

function planAll(
  planning: AgentPlanning,
  holds: (condition: string) => boolean,
  exclude: ReadonlySet<string>,
): (GoapPlan | GoapNoPlan)[] {
  const results: (GoapPlan | GoapNoPlan)[] = [];
  for (const goal of planning.goals.values()) results.push(planGoal(planning, holds, goal, exclude));
  return results;
}

/** Whether plans go to the output channel (debug logs every event, plans included, on its own). */
function plansShown(process: AgentProcess): boolean {
  const { verbosity } = process.processOptions;
  return verbosity.showPlanning && !verbosity.debug;
}

async function reportPlan(process: AgentProcess, plan: GoapPlan): Promise<void> {
  const { outputChannel } = process.processOptions;
  try {
    await outputChannel.send({
      type: "logging",
      processId: process.id,
      level: "info",
      message: `Plan for goal '${plan.goal.name}': ${plan.actions.map((action) => action.name).join(" -> ")} (cost ${plan.cost})`,
    });
  } catch {
    // Reporting must not end the run.
  }
}

/** `The blackboard holds [Topic, String].`: what the process had when it got stuck, by type name. */
function blackboardTypes(process: AgentProcess): string {
  const names = [...new Set(process.blackboard.objects.map(typeNameOf))];
  return `The blackboard holds [${names.join(", ")}].`;
}
