import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { TerminateAgent } from "../errors/terminate-agent.js";
import type { AgentProcessStatus } from "./agent-process-status.js";

/** How an error thrown inside a process ends it. */
export interface ProcessEnding {
  readonly status: AgentProcessStatus;
  readonly reason: string;
  readonly failure: unknown;
}

/**
 * Classifies an error that ended a process: a spent budget or a
 * `TerminateAgent` ends it `terminated`; an abort of its signal ends it
 * `killed`; anything else ends it `failed`, keeping the error.
 */
export function processEnding(error: unknown, signal: AbortSignal): ProcessEnding {
  if (BudgetExceededError.isInstance(error))
    return { status: "terminated", reason: error.message, failure: undefined };
  if (TerminateAgent.isInstance(error))
    return { status: "terminated", reason: error.reason, failure: undefined };
  if (signal.aborted)
    return { status: "killed", reason: messageOf(signal.reason) ?? "Killed", failure: undefined };
  return { status: "failed", reason: messageOf(error) ?? String(error), failure: error };
}

function messageOf(value: unknown): string | undefined {
  if (value instanceof Error) return value.message;
  return typeof value === "string" ? value : undefined;
}
