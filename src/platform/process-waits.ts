import { describeRequest, type PendingRequest } from "../errors/awaiting-response.js";
import { InvalidResponseError } from "../errors/invalid-response-error.js";
import { type AnswerCheck, AnswerChecks } from "../loop/answer-checks.js";
import type { ApprovalAnswer, LoopWaits, WaitJournalEntry } from "../loop/loop-waits.js";
import { strictJsonSchemaValidator } from "../loop/strict-json-schema-validator.js";
import { answerFits, plainAnswer } from "../loop/tool-gate.js";
import type { ApprovalCheck } from "../tool/approval-authority.js";
import type { JsonSchema } from "../tool/input-schema.js";
import type { AwaitableRequest, AwaitableResponse } from "./awaitable.js";

/** The waits of a process as plain JSON (a stopped loop's kept states are values, like the blackboard's): what its checkpoint keeps. */
export interface WaitState {
  /** What the loops and awaitables of the interrupted action did, by slot. */
  readonly journal: readonly (WaitJournalEntry | null)[];
  /** The requests still open. */
  readonly open: readonly AwaitableRequest[];
  /** The answers given, by request key, not yet consumed by a finished action. */
  readonly answers: readonly (readonly [string, unknown])[];
  /** The number of the next request id. */
  readonly nextId: number;
}

/** One accepted answer: the request and how long it waited. */
export interface AcceptedResponse {
  readonly request: AwaitableRequest;
  readonly response: unknown;
  readonly waitedMs: number;
}

/** The key a journal entry was recorded under, if any. */
function keyOf(entry: WaitJournalEntry | null | undefined): string | undefined {
  return entry !== null && entry !== undefined && "key" in entry ? entry.key : undefined;
}

/** The reason of a request denied because nobody answered in time. */
export const TIMED_OUT = "timed out";

/**
 * The waits of one root agent process: the requests it waits on, the answers
 * given, and the journal of the interrupted action's loops and awaitables
 * that lets the action run again to where it stopped (see `LoopWaits`).
 */
export class ProcessWaits implements LoopWaits {
  private journal: (WaitJournalEntry | null)[];
  private open: AwaitableRequest[];
  private readonly answers: Map<string, unknown>;
  private nextId: number;
  private cursor = 0;
  /** How many slots each call key claimed in this run of the action (a call may run several loops). */
  private readonly keyedClaims = new Map<string, number>();
  /** The slots keyed claims took in this run of the action (a slot reserved past the end is not free to the next). */
  private readonly keyedSlots = new Set<number>();
  /** Checks only this live process can run on an answer (a zod schema), by request key; never in the checkpoint. */
  private readonly liveChecks = new Map<string, AnswerCheck>();

  constructor(state?: WaitState) {
    this.journal = state ? [...state.journal] : [];
    this.open = state ? [...state.open] : [];
    this.answers = new Map(state?.answers ?? []);
    this.nextId = state?.nextId ?? 1;
  }

  /** The open requests. */
  get requests(): readonly AwaitableRequest[] {
    return this.open;
  }

  /** Whether anything is kept (a fresh process keeps nothing in its checkpoint). */
  get empty(): boolean {
    return this.journal.length === 0 && this.open.length === 0 && this.answers.size === 0;
  }

  /** The earliest deadline of an open request, if any. */
  get nextDeadline(): number | undefined {
    let earliest: number | undefined;
    for (const request of this.open) {
      if (request.deadline !== undefined && (earliest === undefined || request.deadline < earliest))
        earliest = request.deadline;
    }
    return earliest;
  }

  /** An action of the root process starts: loops and awaitables claim slots from the first again. */
  actionStarted(): void {
    this.cursor = 0;
    this.keyedClaims.clear();
    this.keyedSlots.clear();
  }

  /** The action ended without waiting: its journal and answers are done with. */
  actionEnded(): void {
    this.actionStarted();
    if (this.journal.length > 0) this.journal = [];
    this.answers.clear();
  }

  enter(key?: string): {
    readonly index: number;
    readonly entry: WaitJournalEntry | undefined;
    readonly key?: string;
  } {
    const index = this.cursor++;
    if (key === undefined) return { index, entry: this.journal[index] ?? undefined };
    const count = this.keyedClaims.get(key) ?? 0;
    this.keyedClaims.set(key, count + 1);
    const slotKey = `${key}#${count}`;
    // Its own slot from the previous run, wherever concurrent calls' loops put it.
    const own = this.journal.findIndex((entry) => keyOf(entry) === slotKey);
    if (own >= 0) return this.keyed(own, slotKey);
    const there = this.journal[index] ?? undefined;
    if (!this.keyedSlots.has(index) && keyOf(there) === undefined) return this.keyed(index, slotKey);
    // The positional slot is another call's: a new one past every slot, reserved at once.
    const fresh = Math.max(this.journal.length, this.cursor);
    while (this.journal.length <= fresh) this.journal.push(null);
    return this.keyed(fresh, slotKey);
  }

  private keyed(
    index: number,
    key: string,
  ): { readonly index: number; readonly entry: WaitJournalEntry | undefined; readonly key: string } {
    this.keyedSlots.add(index);
    return { index, entry: this.journal[index] ?? undefined, key };
  }

  position(): number {
    return this.cursor;
  }

  skipTo(index: number): void {
    if (index > this.cursor) this.cursor = index;
  }

  record(index: number, entry: WaitJournalEntry): void {
    while (this.journal.length < index) this.journal.push(null);
    this.journal[index] = entry;
  }

  approvalAnswer(key: string): ApprovalAnswer | undefined {
    const answer = this.answers.get(key);
    return isApprovalAnswer(answer) ? plainAnswer(answer) : undefined;
  }

  /**
   * The answer to the call `check` describes, used up (unless peeking); "ask"
   * when there is none, or when the answer was given for another tool or other
   * arguments (that answer is dropped, so the call is asked again).
   */
  decide(check: ApprovalCheck): ApprovalAnswer | "ask" {
    const answer = this.answers.get(check.callKey);
    if (answer === undefined) return "ask";
    if (!check.peek) this.answers.delete(check.callKey);
    return isApprovalAnswer(answer) && answerFits(answer, check) ? plainAnswer(answer) : "ask";
  }

  /** The answer given to the request `key`, if any. */
  answerOf(key: string): unknown {
    return this.answers.get(key);
  }

  /** Opens `pending` (a request already open under its key keeps its id and time); returns the requests opened now. */
  ask(pending: readonly PendingRequest[], now: number): AwaitableRequest[] {
    const opened: AwaitableRequest[] = [];
    for (const request of pending) {
      const check = AnswerChecks.of(request);
      if (check !== undefined) this.liveChecks.set(request.key, check);
      if (this.open.some((open) => open.key === request.key) || this.answers.has(request.key)) continue;
      const added: AwaitableRequest = {
        ...request,
        id: `r${this.nextId++}`,
        what: describeRequest(request),
        since: now,
        ...(request.timeoutMs !== undefined ? { deadline: now + request.timeoutMs } : {}),
      };
      this.open.push(added);
      opened.push(added);
    }
    return opened;
  }

  /**
   * Accepts `response` to request `requestId` (checked against the request:
   * an approval's `approved` and edited input, a form's schema); a bad answer
   * is an {@link InvalidResponseError} and the request stays open.
   */
  answer(processId: string, requestId: string, response: AwaitableResponse, now: number): AcceptedResponse {
    const request = this.open.find((open) => open.id === requestId);
    if (request === undefined) {
      const known = this.open.map((open) => open.id).join(", ");
      throw new InvalidResponseError(
        `Process ${processId} has no open request '${requestId}' (open: [${known}]).`,
        processId,
        requestId,
      );
    }
    const accepted = checkedResponse(request, response, this.liveChecks.get(request.key), (message) => {
      throw new InvalidResponseError(
        `Request ${requestId} of process ${processId}: ${message}`,
        processId,
        requestId,
      );
    });
    return this.accept(request, accepted, now);
  }

  /** Denies every open request whose deadline has passed (reason "timed out"); returns them. */
  expire(now: number): AcceptedResponse[] {
    const expired = this.open.filter((request) => request.deadline !== undefined && request.deadline <= now);
    return expired.map((request) =>
      this.accept(
        request,
        request.kind === "form" ? { timedOut: true } : { approved: false, reason: TIMED_OUT },
        now,
      ),
    );
  }

  /** The state as plain JSON. */
  state(): WaitState {
    return {
      journal: [...this.journal],
      open: [...this.open],
      answers: [...this.answers],
      nextId: this.nextId,
    };
  }

  /** Forgets the answer to `key` (it did not fit, and the request is asked again). */
  dropAnswer(key: string): void {
    this.answers.delete(key);
  }

  private accept(request: AwaitableRequest, response: unknown, now: number): AcceptedResponse {
    this.open = this.open.filter((open) => open !== request);
    this.liveChecks.delete(request.key);
    // An approval's answer is bound to the call it was given for: the tool and the digest of its arguments.
    const kept =
      request.kind === "approval"
        ? { ...(response as object), toolName: request.toolName, digest: request.digest }
        : response;
    this.answers.set(request.key, kept);
    return { request, response, waitedMs: now - request.since };
  }
}

function isApprovalAnswer(value: unknown): value is ApprovalAnswer & { toolName?: string; digest?: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { approved?: unknown }).approved === "boolean"
  );
}

/** `response` as kept for `request`, or a call of `reject` saying what is wrong. */
function checkedResponse(
  request: AwaitableRequest,
  response: AwaitableResponse,
  liveCheck: AnswerCheck | undefined,
  reject: (message: string) => never,
): unknown {
  if (typeof response !== "object" || response === null || Array.isArray(response))
    return reject(`the response must be an object, got ${JSON.stringify(response)}.`);
  if (request.kind === "form") {
    const problems = strictJsonSchemaValidator(request.schema as JsonSchema)(response);
    if (problems.length > 0) reject(`the form's values do not match its schema: ${problems.join("; ")}`);
    const problem = liveCheck?.(response);
    if (problem !== undefined) reject(`the form's values are refused: ${problem}`);
    return response;
  }
  const approved = (response as { approved?: unknown }).approved;
  if (typeof approved !== "boolean")
    reject(`the response needs 'approved': true or false, got ${JSON.stringify(response)}.`);
  if (approved === false) {
    const reason = (response as { reason?: unknown }).reason;
    if (reason !== undefined && typeof reason !== "string") reject("'reason' must be a string.");
    return reason === undefined ? { approved: false } : { approved: false, reason };
  }
  const input = (response as { input?: unknown }).input;
  if (input === undefined) return { approved: true };
  if (request.kind !== "approval") reject("only an approval takes edited 'input'.");
  if (request.kind === "approval") {
    const problems = strictJsonSchemaValidator(request.inputSchema as JsonSchema)(input);
    if (problems.length > 0)
      reject(`the edited input does not match tool '${request.toolName}''s schema: ${problems.join("; ")}`);
    const problem = liveCheck?.(input);
    if (problem !== undefined) reject(`the edited input is refused: ${problem}`);
  }
  return { approved: true, input };
}
