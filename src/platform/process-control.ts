import type { AwaitingResponse } from "../errors/awaiting-response.js";
import type { ActionInvocation } from "./action-invocation.js";
import type { AgentGoal } from "./agent-goal.js";
import type { AgentProcessStatus } from "./agent-process-status.js";
import type { ProcessLifecycleEvent } from "./process-event.js";
import type { ProcessState } from "./process-state.js";
import { recordWaitSpan } from "./process-telemetry.js";
import { type AcceptedResponse, ProcessWaits } from "./process-waits.js";

/** The platform's handle on a process it runs: the process, and the means to change its state. */
export interface ProcessControl {
  setGoal(goal: AgentGoal | undefined): void;
  /** The action now running (`undefined` between actions): objects added meanwhile are its. */
  setAction(action: string | undefined): void;
  recordAction(invocation: ActionInvocation): void;
  finish(
    status: AgentProcessStatus,
    reason?: string,
    details?: { failure?: unknown; result?: unknown },
  ): void;
  emit(event: ProcessLifecycleEvent): void;
  /** Whether anything sees the process's events (listeners, or debug logging): when false, `emit` does nothing, so callers may skip building the event. */
  readonly observed: boolean;
  /** The pending graceful termination request, if any. */
  readonly terminateRequest: string | undefined;
  /** An action of the process starts (a root process's journal is read from its first slot again). */
  actionStarted(): void;
  /** An action ended without waiting (a root process's journal and answers are dropped). */
  actionEnded(): void;
  /** Puts the process in `waiting` with `signal`'s requests (a child process rethrows it: its root waits). */
  wait(signal: AwaitingResponse): void;
  /** Back to `running` from `waiting`; open requests past their deadline are denied first. */
  resume(): void;
  /** Accepts an answer (an `InvalidResponseError` when it is bad) and emits `response-received`. */
  answer(requestId: string, response: unknown, respondent: string): AcceptedResponse;
  /** Denies the open requests past their deadline ("timed out"), emitting `response-received` for each. */
  expire(now: number): void;
}

/** The platform's handle on one process: a small object over the process's state (one per process). */
export class DefaultProcessControl implements ProcessControl {
  constructor(
    private readonly state: ProcessState,
    readonly observed: boolean,
    private readonly dispatch: (event: ProcessLifecycleEvent) => void,
    private readonly child: boolean,
    private readonly processId: string,
  ) {}

  actionStarted(): void {
    this.state.waits?.actionStarted();
  }

  actionEnded(): void {
    this.state.waits?.actionEnded();
  }

  wait(signal: AwaitingResponse): void {
    if (this.child) throw signal;
    const state = this.state;
    state.waits ??= new ProcessWaits();
    const opened = state.waits.ask(signal.requests, Date.now());
    state.status = "waiting";
    state.statusReason = `Waiting for: ${state.waits.requests.map((request) => `${request.id} ${request.what}`).join("; ")}`;
    if (this.observed && opened.length > 0) this.dispatch({ type: "awaiting-response", requests: opened });
  }

  resume(): void {
    this.expire(Date.now());
    this.state.status = "running";
    this.state.statusReason = undefined;
  }

  answer(requestId: string, response: unknown, respondent: string): AcceptedResponse {
    const waits = this.state.waits ?? new ProcessWaits();
    const accepted = waits.answer(this.processId, requestId, response as never, Date.now());
    this.received(accepted, respondent);
    return accepted;
  }

  expire(now: number): void {
    for (const accepted of this.state.waits?.expire(now) ?? []) this.received(accepted, "timeout");
  }

  private received(accepted: AcceptedResponse, respondent: string): void {
    if (this.state.status === "waiting") {
      const open = this.state.waits?.requests ?? [];
      this.state.statusReason = `Waiting for: ${open.map((request) => `${request.id} ${request.what}`).join("; ")}`;
    }
    const { request, response, waitedMs } = accepted;
    const approved = (response as { approved?: unknown }).approved;
    recordWaitSpan(this.processId, accepted, respondent);
    if (!this.observed) return;
    this.dispatch({
      type: "response-received",
      requestId: request.id,
      kind: request.kind,
      what: request.what,
      respondent,
      waitedMs,
      ...(typeof approved === "boolean" ? { approved } : {}),
      response,
    });
  }

  setGoal(goal: AgentGoal | undefined): void {
    this.state.goal = goal;
  }

  setAction(action: string | undefined): void {
    this.state.action = action;
  }

  recordAction(invocation: ActionInvocation): void {
    this.state.history.push(invocation);
  }

  finish(
    status: AgentProcessStatus,
    reason?: string,
    details?: { failure?: unknown; result?: unknown },
  ): void {
    const state = this.state;
    state.status = status;
    state.statusReason = reason;
    state.failure = details?.failure;
    if (details !== undefined && "result" in details) state.result = details.result;
    state.endedAt = Date.now();
  }

  emit(event: ProcessLifecycleEvent): void {
    this.dispatch(event);
  }

  get terminateRequest(): string | undefined {
    return this.state.terminateRequest;
  }
}
