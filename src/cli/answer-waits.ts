import { setTimeout as sleep } from "node:timers/promises";
import { DEFAULT_QUEUE } from "../distributed/queue-protocol.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import type { AwaitableRequest, AwaitableResponse } from "../platform/awaitable.js";
import { expireWaits } from "../platform/process-launcher.js";
import { indent, type Terminal } from "./terminal.js";

/** How `run` answers a waiting process: ask on the terminal, approve everything, or deny everything. */
export type ApprovalMode = "ask" | "approve-all" | "deny-all";

/** Asks one question on the terminal and resolves to the line typed (`undefined` at end of input, or once `signal` aborts). */
export type AskLine = (question: string, signal?: AbortSignal) => Promise<string | undefined>;

/** The reason `--deny-all` gives. */
export const DENY_ALL_REASON = "denied by --deny-all";

/** What the terminal got when a request's deadline passed before anyone answered it. */
const UNANSWERED = Symbol("unanswered before the deadline");

/**
 * Answers the requests of `process` until it stops waiting: with `--approve-all`
 * / `--deny-all`, or by asking on the terminal (`ask`). Resolves to the process
 * once it ended, or still waiting when nobody can answer here (no terminal and
 * no flag, or a form under a flag): the caller then prints how to answer.
 * A question on the terminal is withdrawn at its request's deadline
 * (`timeoutMs`): the request is denied "timed out" (a form's wait fails), the
 * terminal says so, and the run goes on without waiting for a keystroke.
 */
export async function answerWaits(
  platform: AgentPlatform,
  process: AgentProcess,
  mode: ApprovalMode,
  terminal: Terminal,
  ask: AskLine | undefined,
): Promise<AgentProcess> {
  let current = process;
  while (current.status === "waiting") {
    const [request] = current.awaiting;
    if (request === undefined) break;
    const response =
      mode === "ask"
        ? ask
          ? await askUntilDeadline(request, terminal, ask)
          : undefined
        : flagAnswer(request, mode);
    if (response === undefined) break;
    if (response === UNANSWERED) {
      terminal.out();
      terminal.err(
        terminal.style.yellow(
          `No answer to ${request.id} before its timeout: ${request.kind === "form" ? "the form was not submitted" : 'denied ("timed out")'}.`,
        ),
      );
      const after = await afterDeadline(current);
      // Not expired here (a run on workers expires it there): nothing more this terminal can do.
      if (after.status === "waiting" && after.awaiting[0]?.id === request.id) break;
      current = after;
      continue;
    }
    try {
      current = await platform.respond(current.id, request.id, response, { respondent: "cli" });
    } catch (error) {
      terminal.err(terminal.style.red(`error: ${(error as Error).message}`));
      if (mode !== "ask") break;
    }
  }
  return current;
}

/** Asks for `request` on the terminal; past the request's deadline the question is withdrawn. */
async function askUntilDeadline(
  request: AwaitableRequest,
  terminal: Terminal,
  ask: AskLine,
): Promise<AwaitableResponse | typeof UNANSWERED | undefined> {
  if (request.deadline === undefined) return askFor(request, terminal, ask);
  const withdrawn = new AbortController();
  const timer = setTimeout(() => withdrawn.abort(), Math.max(0, request.deadline - Date.now()));
  try {
    const response = await askFor(request, terminal, (question) => ask(question, withdrawn.signal));
    return withdrawn.signal.aborted ? UNANSWERED : response;
  } finally {
    clearTimeout(timer);
  }
}

/** `process` once its requests past their deadline were denied and it ran on to its end or its next wait. */
async function afterDeadline(process: AgentProcess): Promise<AgentProcess> {
  const after = await expireWaits(process);
  // The runner's own timer may have resumed it first: wait for that run to end or wait again.
  while (after.status === "running") await sleep(20);
  return after;
}

function flagAnswer(
  request: AwaitableRequest,
  mode: "approve-all" | "deny-all",
): AwaitableResponse | undefined {
  if (request.kind === "form") return undefined;
  return mode === "approve-all" ? { approved: true } : { approved: false, reason: DENY_ALL_REASON };
}

/** Shows `request` and reads the answer: approve, deny with a reason, or edit the arguments (JSON); a form as JSON. */
async function askFor(
  request: AwaitableRequest,
  terminal: Terminal,
  ask: AskLine,
): Promise<AwaitableResponse | undefined> {
  describeWaiting(request, terminal);
  if (request.kind === "form") {
    const line = await ask("values (JSON): ");
    return line === undefined ? undefined : parseJson(line, terminal, () => askFor(request, terminal, ask));
  }
  const edit = request.kind === "approval";
  const choices = edit ? "[a]pprove / [d]eny / [e]dit" : "[a]pprove / [d]eny";
  for (;;) {
    const line = await ask(`${choices}: `);
    if (line === undefined) return undefined;
    const choice = line.trim().toLowerCase();
    if (choice === "a" || choice === "approve" || choice === "y" || choice === "yes")
      return { approved: true };
    if (choice === "d" || choice === "deny" || choice === "n" || choice === "no") {
      const reason = (await ask("reason: "))?.trim();
      return reason ? { approved: false, reason } : { approved: false };
    }
    if (edit && (choice === "e" || choice === "edit")) {
      const json = await ask("arguments (JSON): ");
      if (json === undefined) return undefined;
      try {
        return { approved: true, input: JSON.parse(json) };
      } catch {
        terminal.err(terminal.style.red("That is not JSON; try again."));
      }
      continue;
    }
    terminal.err(`Type ${edit ? "a, d or e" : "a or d"}.`);
  }
}

async function parseJson(
  line: string,
  terminal: Terminal,
  again: () => Promise<AwaitableResponse | undefined>,
): Promise<AwaitableResponse | undefined> {
  try {
    return JSON.parse(line) as AwaitableResponse;
  } catch {
    terminal.err(terminal.style.red("That is not JSON; try again."));
    return again();
  }
}

/** Prints what `request` asks: the tool and its arguments, the payload, or the form's fields. */
export function describeWaiting(request: AwaitableRequest, terminal: Terminal): void {
  const { style } = terminal;
  terminal.out(`${style.yellow("?")} ${style.bold(request.id)} ${request.what}`);
  if (request.kind === "approval") {
    terminal.out(indent(request.message, "    "));
    terminal.out(indent(JSON.stringify(request.arguments, null, 2), "    "));
  } else if (request.kind === "confirmation") {
    terminal.out(indent(request.message, "    "));
    terminal.out(indent(JSON.stringify(request.payload, null, 2), "    "));
  } else {
    terminal.out(indent(JSON.stringify(request.schema, null, 2), "    "));
  }
}

/** ` --queue <q>` when `queue` is not the default one, for commands printed to copy. */
export function queueFlag(queue: string | undefined): string {
  return queue === undefined || queue === DEFAULT_QUEUE ? "" : ` --queue ${queue}`;
}

/**
 * Prints the open requests of a process nobody here can answer, and how to
 * answer them: `embabel-ts respond …` for a run on Redis (any caller can
 * answer later), else the flags or a terminal (an in-process run ends with this program).
 */
export function printUnanswered(
  process: AgentProcess,
  terminal: Terminal,
  redis: string | undefined,
  module?: string,
  queue?: string,
): void {
  // Named like the command's, so the printed line works as it is.
  const onQueue = queueFlag(queue);
  terminal.err(terminal.style.yellow(`Process ${process.id} is waiting for a person:`));
  for (const request of process.awaiting) {
    describeWaiting(request, { ...terminal, out: terminal.err });
    if (redis !== undefined) {
      const answer =
        request.kind === "form"
          ? "submit --input '<json>'"
          : "approve|deny [--reason <r>] [--input '<json>']";
      const from = module === undefined ? "" : `${module} `;
      terminal.err(
        `  answer: embabel-ts respond ${from}${process.id} ${request.id} ${answer} --redis ${redis}${onQueue}`,
      );
    }
  }
  if (redis === undefined) {
    terminal.err(
      "Nothing can answer it here: run on a terminal to be asked, or pass --approve-all or --deny-all (or --redis, so it can be answered later with 'embabel-ts respond').",
    );
  }
}
