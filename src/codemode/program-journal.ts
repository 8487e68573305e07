import { createHash } from "node:crypto";

/** How one inner call of a program settled, as the program saw it. */
export type JournalOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly message: string };

/** One inner call of a program: its place, what was called, how it settled, and the guest clock then. */
export interface JournalEntry {
  readonly index: number;
  readonly tool: string;
  /** The arguments as the program passed them (JSON text). */
  readonly args: string;
  readonly outcome: JournalOutcome;
  /** The guest clock (ms since the epoch) when the call settled. */
  readonly at: number;
}

/**
 * What a program's earlier attempts did (plain JSON, kept in the process's
 * durable wait state): the inputs that make the guest deterministic (start
 * clock, random seed) and each inner call that settled, so a resumed program
 * replays them instead of running a tool twice. Bound to the source.
 */
export interface ProgramJournal {
  readonly sourceHash: string;
  readonly startedAt: number;
  readonly seed: number;
  readonly entries: readonly JournalEntry[];
}

/** SHA-256 of a program's source (and the names of the tools it may call), as the journal binds to. */
export function sourceHash(source: string, toolNames: readonly string[]): string {
  return createHash("sha256").update(source).update("\0").update(toolNames.join(",")).digest("base64url");
}

/** True when `value` is a journal as this module writes them (it comes from a checkpoint). */
export function isProgramJournal(value: unknown): value is ProgramJournal {
  if (typeof value !== "object" || value === null) return false;
  const journal = value as Partial<ProgramJournal>;
  return (
    typeof journal.sourceHash === "string" &&
    typeof journal.startedAt === "number" &&
    typeof journal.seed === "number" &&
    Array.isArray(journal.entries) &&
    journal.entries.every(isEntry)
  );
}

function isEntry(value: unknown): value is JournalEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Partial<JournalEntry>;
  const outcome = entry.outcome as Partial<{ ok: boolean; text: unknown; message: unknown }> | undefined;
  return (
    typeof entry.index === "number" &&
    typeof entry.tool === "string" &&
    typeof entry.args === "string" &&
    typeof entry.at === "number" &&
    typeof outcome === "object" &&
    outcome !== null &&
    (outcome.ok === true ? typeof outcome.text === "string" : typeof outcome.message === "string")
  );
}
