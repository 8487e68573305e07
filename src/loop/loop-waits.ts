import type {
  LanguageModelV3Content,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import type { ApprovalAnswer, ApprovalAuthority } from "../tool/approval-authority.js";
import type { LlmUsage } from "./tool-loop.js";

/** A call of a stopped round that already has its result (it ran, or was answered in-band). */
export interface SettledCall {
  /** The call's place in its round (absent in checkpoints written before it was kept: matched by `toolCallId`). */
  readonly index?: number;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The parsed arguments, for the transcript. */
  readonly value: unknown;
  /** The JSON arguments the tool ran with, when it ran. */
  readonly input?: string;
  readonly resultKind: "text" | "error";
  readonly content: string;
  readonly output: LanguageModelV3ToolResultOutput;
  readonly failed?: boolean;
}

/** A tool loop stopped in a round before some of its calls ran: everything needed to go on (plain JSON). */
export interface SuspendedLoop {
  readonly loopId: string;
  /** The conversation before the stopped round's reply. */
  readonly prompt: LanguageModelV3Prompt;
  /** The stopped round's reply (its tool calls). */
  readonly content: readonly LanguageModelV3Content[];
  readonly iteration: number;
  readonly usage: LlmUsage;
  readonly nudged: boolean;
  /** The calls of the round that already have results. */
  readonly settled: readonly SettledCall[];
  /** The tools offered when it stopped. */
  readonly toolNames: readonly string[];
  /**
   * What the loop's stateful strategies held when it stopped (chaining
   * bindings, a playbook's unlock history, a state machine's state), by
   * `ResumableState.resumeKey`; values as blackboard objects (a distributed
   * runner writes them with its type registry). Absent when none held anything.
   */
  readonly states?: Readonly<Record<string, unknown>>;
  /**
   * The journal slot the call that stopped the round was to claim first:
   * resuming, the loop skips to it, so the loops and awaitables of calls
   * settled before (whose results are in the transcript and which do not run
   * again) do not lend their slots to the calls that do. Absent: no skip.
   */
  readonly resumeSlot?: number;
}

/** A finished tool loop, as kept for a replay (plain JSON). */
export interface FinishedLoop {
  readonly loopId: string;
  readonly text: string;
  readonly prompt: LanguageModelV3Prompt;
  readonly iterations: number;
  readonly usage: LlmUsage;
  readonly returnedDirect: boolean;
}

/** One slot of an action's run, in the order loops and awaitables claimed them. */
export type WaitJournalEntry =
  /** `key`: the slot's key when a loop inside a tool call claimed it (see {@link LoopWaits.enter}). */
  | { readonly kind: "loop-done"; readonly loop: FinishedLoop; readonly key?: string }
  | { readonly kind: "loop-suspended"; readonly loop: SuspendedLoop; readonly key?: string }
  | { readonly kind: "awaitable" }
  /** A code-mode program that stopped for a person: its journal of settled inner calls (plain JSON), keyed by the code call. */
  | { readonly kind: "program"; readonly key: string; readonly journal: unknown };

export type { ApprovalAnswer } from "../tool/approval-authority.js";

/**
 * What keeps the waits of the agent process a loop runs in: the journal that
 * lets a resumed action replay its finished loops without calling the model
 * and resume its stopped loop where it stopped, and the answers to approvals.
 */
export interface LoopWaits extends ApprovalAuthority {
  /**
   * Claims the next slot of the current action's run; returns its index and
   * what a previous run left there. With `key` (the tool call a nested loop
   * runs in), the slot a previous run recorded under the same key (and the
   * same count of earlier claims with it) is found wherever it is, so loops of
   * concurrent tool calls each get their own back; record it with the `key` returned.
   */
  enter(key?: string): {
    readonly index: number;
    readonly entry: WaitJournalEntry | undefined;
    readonly key?: string;
  };
  /** Keeps what happened in slot `index`. */
  record(index: number, entry: WaitJournalEntry): void;
  /** The answer to the approval of call `key`, once given (not used up; the gate uses `decide`). */
  approvalAnswer(key: string): ApprovalAnswer | undefined;
  /** The index the next {@link LoopWaits.enter} claims. @default undefined (slots are not skipped on resuming) */
  position?(): number;
  /** Makes the next {@link LoopWaits.enter} claim `index` or later (never earlier). */
  skipTo?(index: number): void;
}
