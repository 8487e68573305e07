import type { PendingRequest } from "../errors/awaiting-response.js";

/** The kinds of request a waiting process can hold. */
export type AwaitableKind = PendingRequest["kind"];

/** An open request of a waiting process, as `process.awaiting` lists it (plain JSON: it travels in checkpoints). */
export type AwaitableRequest = PendingRequest & {
  /** The request's id within its process (`r1`, `r2`, …): what `platform.respond` takes. */
  readonly id: string;
  /** One line saying what is asked. */
  readonly what: string;
  /** When it was asked, in milliseconds since the epoch. */
  readonly since: number;
  /** When it is denied as timed out, in milliseconds since the epoch. @default undefined (never) */
  readonly deadline?: number;
};

/** The answer to an approval request: approve (optionally with edited arguments, checked against the tool's schema), or deny with a reason. */
export type ApprovalResponse =
  | { readonly approved: true; readonly input?: unknown }
  | { readonly approved: false; readonly reason?: string };

/** What `WaitFor.confirmation` resolves to. */
export type ConfirmationResponse =
  | { readonly approved: true }
  | { readonly approved: false; readonly reason?: string };

/** An answer to any request: an approval or confirmation response, or a form's values. */
export type AwaitableResponse = ApprovalResponse | ConfirmationResponse | Readonly<Record<string, unknown>>;

/** Who answered, for events and traces. */
export interface RespondOptions {
  /** Names the responder (`cli`, `studio`, `mcp`, a user name). @default "api" */
  readonly respondent?: string;
}
