import type { JsonSchema } from "./input-schema.js";

/** A person's answer to an approval: run (with the arguments as asked, or edited ones) or don't. */
export type ApprovalAnswer =
  | { readonly approved: true; readonly input?: unknown }
  | { readonly approved: false; readonly reason?: string };

/**
 * One call that needs approval, as the gate hands it to whoever answers:
 * already validated, so `value` is what the tool will get.
 */
export interface ApprovalCheck {
  /** Our stable id of the call site (never a provider's tool-call id). */
  readonly callKey: string;
  /** The tool's name. */
  readonly toolName: string;
  /** The validated arguments (zod output with defaults and transforms, else the coerced JSON). */
  readonly value: unknown;
  /** The JSON arguments the tool will be called with. */
  readonly input: string;
  /** A digest of `input`: an answer is bound to the tool name and this. */
  readonly digest: string;
  /** What the person is told. */
  readonly message: string;
  /** The tool's input schema (edited arguments are checked against it). */
  readonly inputSchema: JsonSchema;
  /** Unanswered this long, the call is denied with reason "timed out". @default undefined (waits for ever) */
  readonly timeoutMs?: number;
  /** Why the person is asked again (their edited arguments were refused). @default undefined */
  readonly problem?: string;
  /** Look without using the answer (the gate lists later calls of a round that stops). @default false */
  readonly peek?: boolean;
  /** Aborts the wait for an answer. */
  readonly signal?: AbortSignal;
}

/**
 * Who answers approvals: an agent process's waits (durable; "ask" makes the
 * process wait), or an approval callback outside a process.
 */
export interface ApprovalAuthority {
  /** The answer for this exact call (bound to callKey + tool name + validated input), consuming it; or "ask". */
  decide(check: ApprovalCheck): Promise<ApprovalAnswer | "ask"> | ApprovalAnswer | "ask";
}

/** What an approval callback is given: the call, validated. */
export interface ApprovalQuestion {
  /** The tool's name. */
  readonly toolName: string;
  /** The validated arguments, as the tool will get them. */
  readonly input: unknown;
  /** What the person is told (the tool's `message`). */
  readonly message: string;
  /** Set when the person's previous edit was refused: what was wrong with it. @default undefined */
  readonly problem?: string;
}

/**
 * Answers approvals outside an agent process (`createAgentPlatform({ onApproval })`,
 * `platform.ai().withApproval(callback)`): `{ approved: true }`,
 * `{ approved: true, input: edited }` or `{ approved: false, reason }`.
 */
export type ApprovalCallback = (question: ApprovalQuestion) => ApprovalAnswer | Promise<ApprovalAnswer>;
