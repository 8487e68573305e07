import type { ToolLoopEvent } from "../loop/tool-loop.js";
import type { AgentProcessStatus } from "./agent-process-status.js";
import type { AwaitableKind, AwaitableRequest } from "./awaitable.js";

/** Fields every {@link AgentProcessEvent} carries. */
export interface ProcessEventBase {
  /** The process the event belongs to. */
  readonly processId: string;
  /** When the event happened (milliseconds since the epoch). */
  readonly timestamp: number;
}

/** What the planner decided at one step of an agent process. */
export interface PlanningEvent {
  readonly type: "plan-formulated";
  /** The goal the plan reaches. */
  readonly goal: string;
  /** The plan's actions, in order; only the first runs before the next replan. */
  readonly actions: readonly string[];
  /** The plan's total cost. */
  readonly cost: number;
  /** The conditions true in the world state the plan starts from. */
  readonly worldState: readonly string[];
}

/** Events of the process itself (the tool loop's events are the rest of {@link AgentProcessEvent}). */
export type ProcessLifecycleEvent =
  | {
      readonly type: "process-started";
      readonly agent?: string;
      readonly parentId?: string;
      /** The parent's tool call that started this process (a subagent), when there is one. */
      readonly parentToolCallId?: string;
    }
  | PlanningEvent
  | { readonly type: "goal-achieved"; readonly goal: string }
  | { readonly type: "action-start"; readonly action: string }
  | {
      readonly type: "action-end";
      readonly action: string;
      readonly durationMs: number;
      readonly outcome: ActionOutcome;
      readonly error?: unknown;
    }
  | { readonly type: "replan-requested"; readonly action: string; readonly reason: string }
  | {
      readonly type: "object-added";
      /** The action running when it was added (its output, or an object a tool of it added); absent for the process's input and for objects added outside any action (`runInProcess`). */
      readonly action?: string;
      /** The object's type name. */
      readonly typeName: string;
      /** The object itself (a reference). */
      readonly value: unknown;
    }
  | {
      readonly type: "embedding-call-end";
      /** The platform's name for the embedding model. */
      readonly model: string;
      readonly provider: string;
      readonly modelId: string;
      /** How many texts were embedded. */
      readonly inputs: number;
      /** Input tokens reported by the provider. */
      readonly tokens: number;
      readonly durationMs: number;
    }
  | {
      readonly type: "awaiting-response";
      /** The requests opened now (the process is `waiting` until all its requests are answered). */
      readonly requests: readonly AwaitableRequest[];
    }
  | {
      readonly type: "response-received";
      readonly requestId: string;
      readonly kind: AwaitableKind;
      /** What the request asked. */
      readonly what: string;
      /** Who answered (`api`, `cli`, `studio`, `mcp`, `timeout`, …). */
      readonly respondent: string;
      /** How long the request waited. */
      readonly waitedMs: number;
      /** For approvals and confirmations. */
      readonly approved?: boolean;
      /** The answer as accepted. */
      readonly response: unknown;
    }
  | {
      readonly type: "process-finished";
      readonly status: AgentProcessStatus;
      readonly reason?: string;
      readonly durationMs: number;
    };

/** How one action run ended (`killed`: the process was cancelled from outside while it ran; `waiting`: it stopped for a person and runs again once answered). */
export type ActionOutcome = "succeeded" | "failed" | "replan" | "terminated" | "killed" | "waiting";

/**
 * Every event of an agent process: lifecycle, planning and actions, plus each
 * event of the tool loops run inside it (LLM calls, tool calls, tool-list
 * changes), all stamped with the process id.
 */
export type AgentProcessEvent = ProcessEventBase & (ProcessLifecycleEvent | ToolLoopEvent);

/** Receives every event of a process; a throwing listener is ignored. */
export type ProcessListener = (event: AgentProcessEvent) => void;
